// Internal to the native HTTP/1.1 client (http1_client.cc: transfers and the HttpClient
// interface; http1_connection.cc: connections, socket I/O and the keep-alive pool). Not part
// of the transport module's interface: use make_http1_client (http1_client.h).
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "transport/event_loop.h"
#include "transport/http1_request.h"
#include "transport/http1_response_parser.h"
#include "transport/http_client.h"

namespace servebench::transport::http1_internal {

using record::ErrorKind;

struct Target {
  Http1Endpoint ep;
  std::vector<struct Conn*> idle;
};

struct Transfer;

struct Conn {
  int fd = -1;
  Target* target = nullptr;
  Transfer* transfer = nullptr;
  bool connecting = false;
  bool closed = false;
  uint64_t group = 0;
  int64_t served = 0;      // completed responses on this connection
  uint32_t interest = 0;
  EventLoop::TimerId connect_timer = 0;
  bool has_connect_timer = false;
  Http1ResponseParser parser;
};

struct Transfer final : Http1ResponseParser::Sink {
  HttpClient::TransferId id = 0;
  ResponseHandler* handler = nullptr;
  Target* target = nullptr;
  Conn* conn = nullptr;
  std::string wire;         // the request bytes
  size_t written = 0;
  int32_t writes = 0;       // send() calls that took request bytes
  int64_t start_ns = 0;
  int64_t timeout_ns = 0;
  int64_t read_ns = 0;      // time of the read being parsed
  bool fresh = false;
  uint64_t group = 0;
  bool got_bytes = false;
  bool retried = false;
  bool reused = false;
  bool finished = false;
  EventLoop::TimerId timer = 0;
  bool has_timer = false;

  int64_t first_byte_ns = 0;
  int64_t conn_start_ns = 0;  // this transfer's new connection: set-up began
  bool cancel_pending = false;  // cancelled from inside one of its own callbacks
  int* handler_depth = nullptr;  // the client's count of handler callbacks on the stack
  void on_response_headers(int status) override {
    if (finished || cancel_pending) return;
    ++*handler_depth;
    handler->on_headers(status, first_byte_ns);
    --*handler_depth;
  }
  void on_response_body(std::string_view bytes) override {
    if (finished || cancel_pending) return;
    ++*handler_depth;
    handler->on_body(bytes, read_ns);
    --*handler_depth;
  }
};

class Http1Client final : public HttpClient {
 public:
  Http1Client(EventLoop& loop, const ClientOptions& options)
      : loop_(loop), options_(options), read_buf_(std::max<size_t>(options.receive_buffer_bytes, 4096)) {}

  ~Http1Client() override;
  Result<TransferId> start(const HttpRequest& request, ResponseHandler* handler) override;
  void cancel(TransferId id) override;

  size_t in_flight() const override { return transfers_.size() - graveyard_.size(); }

  void release_group(uint64_t group) override;

 private:
  Result<Target*> target_for(const std::string& url);
  void assign_connection(Transfer* t);
  void attach(Transfer* t, Conn* c);
  void open_connection(Transfer* t);

  // Host names are resolved once per target (target_for), so connection set-up starts with the
  // name already known: dns_done == start.
  void report_connected(Transfer* t);
  void set_interest(Conn* c, uint32_t interest);
  void write_request(Transfer* t);
  void on_event(int fd, uint32_t events);
  void read_response(Transfer* t);

  // The connection broke: retry once on a new connection if it was a reused one that had not
  // produced any response yet, otherwise fail the transfer.
  void connection_failed(Transfer* t, const std::string& why);
  void cancel_connect_timer(Conn* c);
  void on_connect_timeout(int fd);
  void on_timeout(TransferId id);

  // Ends a transfer: the connection goes back to the pool or is closed, then on_complete.
  void finish(Transfer* t, ErrorKind kind, std::string message, bool keep_conn);

  // Reports a failure found inside start() from the loop instead (start never completes).
  void fail_later(Transfer* t, ErrorKind kind, std::string message);
  void remove_idle(Conn* c);
  void close_conn(Conn* c);

  // Frees finished transfers and closed connections once no callback is on the stack.
  void collect();

  // A finished transfer is kept for the next start(), reset but with its request buffer's
  // capacity: a fresh Transfer and wire string per request were two allocations each time.
  void recycle(std::unique_ptr<Transfer> t);

  struct Deferred {
    TransferId id;
    ErrorKind kind;
    std::string message;
  };
  EventLoop& loop_;
  ClientOptions options_;
  std::vector<char> read_buf_;
  std::unordered_map<std::string, std::unique_ptr<Target>> targets_;
  std::string last_target_key_;  // the last target_for hit, checked first
  Target* last_target_ = nullptr;
  std::unordered_map<int, std::unique_ptr<Conn>> conns_;
  std::unordered_map<TransferId, std::unique_ptr<Transfer>> transfers_;
  std::unordered_map<uint64_t, Conn*> sticky_;
  std::vector<TransferId> graveyard_;
  static constexpr size_t kMaxSpareTransfers = 1024;
  std::vector<std::unique_ptr<Transfer>> spare_transfers_;
  std::vector<std::unique_ptr<Conn>> dead_conns_;
  std::vector<Deferred> deferred_;
  bool deferred_timer_pending_ = false;
  EventLoop::TimerId deferred_timer_ = 0;
  TransferId last_id_ = 0;
  int depth_ = 0;
  int handler_depth_ = 0;
  int in_start_ = 0;  // inside start(): completions are deferred to the loop
};

}  // namespace servebench::transport::http1_internal
