// A minimal HTTP/1.1 server for transport tests: loopback, ephemeral port, one thread per
// connection, keep-alive, scripted responses. It shares no code with the client under test.
// Responders run on the connection's thread and may block on wait_ack() until the test's
// client acknowledges what it received, so streamed pieces arrive in separate reads without
// any sleeping.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace servebench::testing {

class TestHttpServer {
 public:
  struct Request {
    std::string method;
    std::string path;
    std::vector<std::string> headers;  // raw "Name: value" lines
    std::string body;
    int conn_id = 0;
    bool has_header(const std::string& name_prefix) const;  // case-insensitive prefix match
  };

  class Conn {
   public:
    explicit Conn(int fd, int id) : fd_(fd), id_(id) {}
    void write(const std::string& bytes);
    void write_chunk(const std::string& bytes);  // one chunked-encoding chunk
    void end_chunks() { write("0\r\n\r\n"); }
    void reset();  // RST: SO_LINGER 0 then close
    void close();  // FIN
    bool closed() const { return closed_; }
    int id() const { return id_; }
    int fd() const { return fd_; }

   private:
    int fd_;
    int id_;
    bool closed_ = false;
  };

  using Responder = std::function<void(Conn&, const Request&)>;

  // `greeting`, when not empty, is written to every connection as soon as it is accepted (to
  // play a server that speaks first or speaks the wrong protocol).
  explicit TestHttpServer(Responder responder, std::string greeting = "");
  ~TestHttpServer();

  int port() const { return port_; }
  std::string url(const std::string& path) const;
  int accepts() const { return accepts_.load(); }
  std::vector<Request> requests() const;

  // Client side: count one acknowledgement. Server side: wait until `n` acknowledgements were
  // counted in total (gives up after 10 s so a broken client cannot hang the test).
  void ack();
  bool wait_acks(int n);

  // A canned response: 200 with a Content-Length body.
  static void respond_fixed(Conn& c, const std::string& body, int status = 200);

 private:
  void accept_loop();
  void serve(int fd, int id);

  Responder responder_;
  std::string greeting_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<int> accepts_{0};
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<std::thread> conn_threads_;
  std::vector<int> conn_fds_;
  std::vector<Request> requests_;
  std::condition_variable ack_cv_;
  int acks_ = 0;
};

// A port on which nothing listens (bound, then closed).
int unused_loopback_port();

}  // namespace servebench::testing
