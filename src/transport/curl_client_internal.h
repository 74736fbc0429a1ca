// Internal to the libcurl client (curl_client.cc: transfers, easy handles and the HttpClient
// interface; curl_multi_glue.cc: the multi_socket callbacks driven by the EventLoop and the
// completion of finished transfers). Not part of the transport module's interface: use
// make_curl_client (http_client.h).
#pragma once

#include <curl/curl.h>

#include <memory>
#include <unordered_map>
#include <vector>

#include "transport/event_loop.h"
#include "transport/http_client.h"

namespace servebench::transport::curl_internal {

using record::ErrorKind;

class CurlClient;

struct Transfer {
  CurlClient* owner = nullptr;
  CURL* easy = nullptr;
  HttpClient::TransferId id = 0;
  ResponseHandler* handler = nullptr;
  HttpRequest request;
  curl_slist* headers = nullptr;
  int64_t start_ns = 0;
  bool status_seen = false;     // first header line of the final response seen
  int64_t status_line_ns = 0;
  bool headers_reported = false;
  bool aborted = false;         // cancelled from inside a callback: drop further data
  char error_buf[CURL_ERROR_SIZE] = {0};
};

class CurlClient final : public HttpClient {
 public:
  CurlClient(EventLoop& loop, const ClientOptions& options) : loop_(loop), options_(options) {}

  Status init();
  ~CurlClient() override;
  Result<TransferId> start(const HttpRequest& request, ResponseHandler* handler) override;
  void cancel(TransferId id) override;

  size_t in_flight() const override { return transfers_.size(); }

  void release_group(uint64_t group) override;

 private:
  std::unique_ptr<Transfer> take_transfer();
  void recycle(std::unique_ptr<Transfer> t);
  void finish_and_recycle(std::unique_ptr<Transfer> t);
  static bool h2c_reuse_broken();
  static bool connection_reused(CURL* e);
  CURLSH* share_for(uint64_t group);

  // A new connection's set-up from curl's timers (µs since the transfer start). libcurl 7.88 has
  // no queue time, so a wait for a free connection counts as DNS time here.
  void report_connect_timing(Transfer* t);

  // Reports headers (and the request-sent time) once, when the final response's headers end.
  void report_headers(Transfer* t);
  static size_t header_cb(char* data, size_t size, size_t n, void* userdata);
  static size_t write_cb(char* data, size_t size, size_t n, void* userdata);
  static int close_socket_cb(void* clientp, curl_socket_t fd);
  static int socket_cb(CURL*, curl_socket_t fd, int what, void* userp, void*);
  static int timer_cb(CURLM*, long timeout_ms, void* userp);

  enum SockState : uint8_t { kUnwatched = 0, kActive = 1, kParked = 2 };
  void on_curl_socket(int fd, int what);
  void forget_socket(int fd);
  void on_fd_event(int fd, uint32_t events);
  void on_curl_timer(long timeout_ms);
  void on_loop_timer();
  void drive(curl_socket_t fd, int mask);

  // Adds a transfer whose start() ran inside a callback. Returns false if it failed (reported).
  bool add_pending(TransferId id);

  // Moves finished transfers from curl's message queue to ours (stamping their end time).
  void harvest();
  void complete_finished();

  static CurlClient* owner_of(Transfer* t) { return t->owner; }
  static int64_t clock_of(Transfer* t) { return t->owner->loop_.clock().now_ns(); }

  EventLoop& loop_;
  ClientOptions options_;
  CURLM* multi_ = nullptr;
  std::unordered_map<TransferId, std::unique_ptr<Transfer>> transfers_;
  std::vector<std::unique_ptr<Transfer>> free_transfers_;
  std::unordered_map<uint64_t, CURLSH*> shares_;
  std::unordered_map<uint64_t, int> group_in_flight_;  // transfers per sticky group
  std::vector<uint8_t> sock_state_;
  std::vector<TransferId> pending_adds_;      // started inside a callback; added after it
  std::vector<TransferId> deferred_cancels_;  // cancelled inside a callback
  TransferId last_id_ = 0;
  int callback_depth_ = 0;
  bool in_completions_ = false;
  struct Done {
    TransferId id;
    CURLcode code;
    int64_t end_ns;
  };
  std::vector<Done> done_;
  bool completion_timer_pending_ = false;
  EventLoop::TimerId completion_timer_ = 0;
  int64_t curl_due_ns_ = 0;
  bool timer_pending_ = false;
  int64_t timer_due_ns_ = 0;
  EventLoop::TimerId timer_id_ = 0;
};

}  // namespace servebench::transport::curl_internal
