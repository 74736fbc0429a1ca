// Test harness for servebench-mock integration tests: starts the real binary on an ephemeral
// port, and a tiny blocking HTTP/1.1 client over a raw socket (no src/transport, no libcurl)
// that timestamps every SSE event as its bytes arrive.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace servebench::mock::testing {

int64_t steady_now_ns();

class MockProcess {
 public:
  // Starts $SERVEBENCH_BIN_DIR/servebench-mock with `args` and waits (≤ 10 s) for its
  // `listening on http://HOST:PORT` line. Returns null (and prints why) on failure.
  // nofile_limit > 0 caps the child's descriptors (soft and hard).
  static std::unique_ptr<MockProcess> start(const std::vector<std::string>& args,
                                            int nofile_limit = 0);
  ~MockProcess();
  uint16_t port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& first_line() const { return first_line_; }
  // Sends SIGTERM and waits; returns the exit status (or -1).
  int stop();

 private:
  pid_t pid_ = -1;
  uint16_t port_ = 0;
  std::string first_line_;
};

// Runs the binary to completion with `args` (for bad-flag tests): exit code and stderr.
struct RunResult {
  int exit_code = -1;
  std::string stderr_text;
  std::string stdout_text;
  int64_t wall_ns = 0;
};
RunResult run_mock_to_exit(const std::vector<std::string>& args);

struct SseEvent {
  std::string data;    // text after "data: "
  int64_t arrival_ns;  // steady time of the read that completed it
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lowercased names
  std::string body;                            // de-chunked
  std::vector<SseEvent> events;
  int64_t sent_ns = 0;     // when the request's last byte was written
  int64_t headers_ns = 0;  // when the header block completed
  bool complete = false;   // a full response was read
  bool reset = false;      // the connection was reset (ECONNRESET)
  bool eof = false;        // the server closed the connection
  bool timed_out = false;
};

class RawClient {
 public:
  explicit RawClient(uint16_t port);
  ~RawClient();
  bool connected() const { return fd_ >= 0; }
  // Sends a request (builds the header block; adds Content-Length and Host).
  void send_request(const std::string& method, const std::string& path, const std::string& body,
                    const std::map<std::string, std::string>& headers = {});
  void send_raw(const std::string& bytes);
  // Reads one response (or until close/timeout).
  HttpResponse read_response(int timeout_ms = 10'000);
  // True when the server closed the connection within timeout_ms (EOF or reset).
  bool wait_closed(int timeout_ms);

 private:
  int fd_ = -1;
  std::string pending_;  // bytes read beyond the last response
  int64_t sent_ns_ = 0;
};

// One request on a fresh connection.
HttpResponse post_json(uint16_t port, const std::string& path, const std::string& body,
                       const std::map<std::string, std::string>& headers = {},
                       int timeout_ms = 10'000);
HttpResponse get(uint16_t port, const std::string& path);

// Reads a JSONL file, polling up to timeout_ms until it has at least `min_lines` lines.
std::vector<std::string> read_lines(const std::string& path, size_t min_lines,
                                    int timeout_ms = 3'000);

std::string temp_path(const std::string& name);

}  // namespace servebench::mock::testing
