// ApiServer: a small blocking HTTP/1.1 server for the live API. One thread polls the listening
// socket, serves one GET at a time (requests are tiny JSON or text documents) and closes each
// connection after its response. A slow or silent client is dropped after 1 s, so it cannot
// stall the thread for long; the server never touches the benchmark's workers.
//
// Thread safety: the handler runs on the server's thread. start() and the destructor from the
// owning thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/result.h"

namespace servebench::live {

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// Maps a request path (query string removed) to a response.
using ApiHandler = std::function<ApiResponse(const std::string& path)>;

class ApiServer {
 public:
  // Binds host:port (port 0: any free port). Errors name the address and the flag to change.
  static Result<std::unique_ptr<ApiServer>> start(const std::string& host, int port,
                                                  ApiHandler handler);
  ~ApiServer();
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  int port() const { return port_; }

 private:
  ApiServer(int listen_fd, int port, ApiHandler handler);
  void loop();
  void serve(int fd);

  const int listen_fd_;
  const int port_;
  const ApiHandler handler_;
  int wake_[2] = {-1, -1};
  std::thread thread_;
};

// "GET /api/progress?x=1 HTTP/1.1\r\n..." → method "GET", path "/api/progress". False when the
// request line is not complete or malformed.
bool parse_request_line(const std::string& head, std::string* method, std::string* path);

}  // namespace servebench::live
