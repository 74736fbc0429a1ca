// libcurl multi_socket HttpClient driven by an EventLoop.
//
// How it maps onto libcurl (7.88):
// - One multi handle per client (per worker). CURLMOPT_SOCKETFUNCTION tells us which fds to
//   watch; CURLMOPT_TIMERFUNCTION the single deadline curl wants; both feed
//   curl_multi_socket_action. Completed transfers are read with curl_multi_info_read after each
//   socket_action and reported outside curl's callbacks, so handlers may start or cancel
//   transfers from on_complete.
// - epoll_ctl churn: when a keep-alive connection goes idle curl says CURL_POLL_REMOVE; we keep
//   the fd registered ("parked") instead of deleting it, so the next request on that connection
//   costs no epoll_ctl at all. A parked fd that becomes readable (the server closed it) is
//   unwatched then. CURLOPT_CLOSESOCKETFUNCTION unwatches every fd before curl closes it, so a
//   recycled fd number can never inherit a stale registration.
// - Easy handles are pooled and reused; options that vary per request are set on every start.
//   CURLOPT_NOSIGNAL (no signal handler churn), TCP_NODELAY, CURLOPT_BUFFERSIZE small, and an
//   empty "Expect:" header (curl would otherwise wait for 100-continue on bodies > 1 KiB).
// - Timestamps: every write callback reads the loop's clock before handing the bytes on. The
//   first header line (status line) gives the headers' receive time. The request-sent time is
//   start_ns + CURLINFO_PRETRANSFER_TIME_T: the moment curl began writing the request (for
//   bodies up to curl's upload buffer, headers and body go out in that one send). curl's timing
//   base is the transfer start, which we trigger synchronously in start(), so the two clocks
//   share an origin to within a microsecond.
// - connection_reused: CURLINFO_NUM_CONNECTS == 0.
// - Sticky sessions (connection_group != 0): each group gets its own CURLSH sharing
//   CURL_LOCK_DATA_CONNECT, i.e. its own connection cache, so a group's requests reuse the
//   group's connection(s) and never another group's. libcurl cannot pin one named connection;
//   a group whose requests overlap in time opens more than one. release_group() closes them.
// - HTTP/2: CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE for http://, CURL_HTTP_VERSION_2TLS for
//   https://; CURLMOPT_PIPELINING multiplex and CURLOPT_PIPEWAIT so streams share connections.
#include <curl/curl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "core/env.h"
#include "core/log.h"
#include "transport/curl_error_kind.h"
#include "transport/http_client.h"

namespace servebench::transport {

namespace {

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

  Status init() {
    curl_global_init_once();
    multi_ = curl_multi_init();
    if (!multi_) return make_error(ErrorCode::kInternal, "curl_multi_init failed");
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &CurlClient::socket_cb);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &CurlClient::timer_cb);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
    curl_multi_setopt(multi_, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
    if (options_.max_connections > 0) {
      curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(options_.max_connections));
    }
    // Keep every idle keep-alive connection: curl's default cache (4 x handles) could close
    // connections a closed-loop benchmark is about to reuse.
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS,
                      static_cast<long>(options_.max_connections > 0 ? options_.max_connections : 100000));
    return core::ok_status();
  }

  ~CurlClient() override {
    // Order matters: detach every easy handle from the multi and from the group shares before
    // the shares can be cleaned up (curl refuses while a handle still uses one), then the multi.
    for (auto& [id, t] : transfers_) {
      curl_multi_remove_handle(multi_, t->easy);  // no-op for a pending add
      curl_slist_free_all(t->headers);
      t->headers = nullptr;
      free_transfers_.push_back(std::move(t));
    }
    transfers_.clear();
    for (auto& t : free_transfers_) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
    for (auto& [group, share] : shares_) curl_share_cleanup(share);
    if (multi_) curl_multi_cleanup(multi_);
    for (auto& t : free_transfers_) curl_easy_cleanup(t->easy);
    if (timer_pending_) loop_.cancel_timer(timer_id_);
    if (completion_timer_pending_) loop_.cancel_timer(completion_timer_);
  }

  Result<TransferId> start(const HttpRequest& request, ResponseHandler* handler) override {
    std::unique_ptr<Transfer> t = take_transfer();
    if (!t) return make_error(ErrorCode::kInternal, "curl_easy_init failed");
    t->owner = this;
    t->id = ++last_id_;
    t->handler = handler;
    t->request = request;
    t->status_seen = false;
    t->headers_reported = false;
    t->aborted = false;
    t->error_buf[0] = '\0';
    CURL* e = t->easy;
    const HttpRequest& r = t->request;
    curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());
    if (r.method == "POST") {
      curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.data());
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, nullptr);
    } else if (r.method == "GET") {
      curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, nullptr);
    } else {
      curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.data());
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    }
    bool has_content_type = false;
    curl_slist* hl = nullptr;
    for (const std::string& h : r.headers) {
      if (h.size() >= 13 && strncasecmp(h.c_str(), "content-type:", 13) == 0) has_content_type = true;
      hl = curl_slist_append(hl, h.c_str());
    }
    if (!has_content_type && !r.body.empty()) hl = curl_slist_append(hl, "Content-Type: application/json");
    hl = curl_slist_append(hl, "Expect:");
    t->headers = hl;
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, r.timeout_ns > 0 ? static_cast<long>((r.timeout_ns + 999'999) / 1'000'000) : 0L);
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, r.fresh_connection ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_FORBID_REUSE, r.fresh_connection ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_SHARE, r.connection_group != 0 ? share_for(r.connection_group) : nullptr);
    if (r.connection_group != 0) ++group_in_flight_[r.connection_group];
    if (options_.http_version == 2) {
      const bool tls = r.url.compare(0, 8, "https://") == 0;
      curl_easy_setopt(e, CURLOPT_HTTP_VERSION, tls ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
      if (!tls && h2c_reuse_broken()) {
        // libcurl < 8.0 fails every request that reuses a prior-knowledge HTTP/2 connection
        // ("Error in the HTTP2 framing layer", curl issue #10634, fixed in 8.0.0): one
        // connection per request keeps h2c correct, without multiplexing. https:// (ALPN) is
        // not affected.
        curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
        curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
      }
    } else {
      curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    }
    Transfer* raw = t.get();
    curl_easy_setopt(e, CURLOPT_PRIVATE, raw);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, raw->error_buf);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, raw);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, raw);
    const TransferId id = raw->id;
    if (callback_depth_ > 0) {
      // Inside a curl callback (a handler's on_body/on_headers): libcurl refuses
      // curl_multi_add_handle there, so the add happens right after the callback returns.
      transfers_.emplace(id, std::move(t));
      pending_adds_.push_back(id);
      return id;
    }
    t->start_ns = loop_.clock().now_ns();
    CURLMcode mc = curl_multi_add_handle(multi_, e);
    if (mc != CURLM_OK) {
      finish_and_recycle(std::move(t));
      return make_error(ErrorCode::kInternal, std::string("curl_multi_add_handle: ") + curl_multi_strerror(mc));
    }
    transfers_.emplace(id, std::move(t));
    // Start the transfer now (connect or send on a pooled connection) instead of on the next
    // loop iteration: request_start and the wire agree, and curl's timing base is now.
    // Completions are not reported from inside start(): any found are reported from the loop.
    int running = 0;
    ++callback_depth_;
    curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
    --callback_depth_;
    harvest();
    if (!done_.empty() && !in_completions_ && !completion_timer_pending_) {
      completion_timer_pending_ = true;
      completion_timer_ = loop_.add_timer(loop_.clock().now_ns(), [this] {
        completion_timer_pending_ = false;
        complete_finished();
      });
    }
    return id;
  }

  void cancel(TransferId id) override {
    auto it = transfers_.find(id);
    if (it == transfers_.end()) return;
    if (callback_depth_ > 0) {
      // Inside one of curl's callbacks curl_multi_remove_handle is not allowed: stop data
      // delivery now and finish the cancellation as soon as curl returns.
      it->second->aborted = true;
      deferred_cancels_.push_back(id);
      return;
    }
    std::unique_ptr<Transfer> t = std::move(it->second);
    transfers_.erase(it);
    curl_multi_remove_handle(multi_, t->easy);  // closes the connection mid-response
    const int64_t end_ns = loop_.clock().now_ns();
    ResponseHandler* h = t->handler;
    const bool reused = connection_reused(t->easy);
    finish_and_recycle(std::move(t));
    h->on_complete(ErrorKind::kCancelled, "cancelled", end_ns, reused);
  }

  size_t in_flight() const override { return transfers_.size(); }

  void release_group(uint64_t group) override {
    auto it = shares_.find(group);
    if (it == shares_.end()) return;
    auto busy = group_in_flight_.find(group);
    if (busy != group_in_flight_.end() && busy->second > 0) return;  // still in use; keep it
    // No easy handle references the share any more (detached when each transfer ended), so
    // cleanup succeeds and closes the group's connection(s).
    curl_share_cleanup(it->second);
    shares_.erase(it);
  }

 private:
  std::unique_ptr<Transfer> take_transfer() {
    if (!free_transfers_.empty()) {
      std::unique_ptr<Transfer> t = std::move(free_transfers_.back());
      free_transfers_.pop_back();
      return t;
    }
    auto t = std::make_unique<Transfer>();
    t->easy = curl_easy_init();
    if (!t->easy) return nullptr;
    CURL* e = t->easy;
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(e, CURLOPT_BUFFERSIZE, static_cast<long>(options_.receive_buffer_bytes));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ns / 1'000'000));
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, options_.verify_tls ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, options_.verify_tls ? 2L : 0L);
    // PIPEWAIT only for HTTP/2: with HTTP/1.1 it makes new transfers queue behind one
    // connection instead of opening their own (measured: concurrency collapsed to ~1).
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, options_.http_version == 2 ? 1L : 0L);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &CurlClient::write_cb);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &CurlClient::header_cb);
    curl_easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, &CurlClient::close_socket_cb);
    curl_easy_setopt(e, CURLOPT_CLOSESOCKETDATA, this);
    curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, nullptr);  // never decompress on the hot path
    // Debugging aid: SERVEBENCH_CURL_VERBOSE=1 makes libcurl trace every transfer to stderr.
    static const bool verbose = core::env().get(core::EnvVar::kServebenchCurlVerbose).has_value();
    if (verbose) curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
    // Proxies only when the user's environment asks for them (libcurl reads http_proxy etc.).
    return t;
  }

  void recycle(std::unique_ptr<Transfer> t) {
    t->handler = nullptr;
    t->request = HttpRequest{};
    free_transfers_.push_back(std::move(t));
  }

  void finish_and_recycle(std::unique_ptr<Transfer> t) {
    curl_slist_free_all(t->headers);
    t->headers = nullptr;
    if (const uint64_t g = t->request.connection_group; g != 0) {
      curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
      if (--group_in_flight_[g] <= 0) group_in_flight_.erase(g);
    }
    recycle(std::move(t));
  }

  static bool h2c_reuse_broken() {
    static const bool broken = [] {
      const bool b = curl_version_info(CURLVERSION_NOW)->version_num < 0x080000;
      if (b) {
        SB_LOG_WARN("libcurl {} cannot reuse HTTP/2 prior-knowledge (h2c) connections (curl issue "
                    "#10634): --http-version 2 over http:// opens one connection per request; "
                    "use https:// for multiplexing",
                    curl_version_info(CURLVERSION_NOW)->version);
      }
      return b;
    }();
    return broken;
  }

  static bool connection_reused(CURL* e) {
    long connects = 0;
    curl_easy_getinfo(e, CURLINFO_NUM_CONNECTS, &connects);
    return connects == 0;
  }

  CURLSH* share_for(uint64_t group) {
    auto it = shares_.find(group);
    if (it != shares_.end()) return it->second;
    CURLSH* sh = curl_share_init();
    curl_share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    shares_.emplace(group, sh);
    return sh;
  }

  // A new connection's set-up from curl's timers (µs since the transfer start). libcurl 7.88 has
  // no queue time, so a wait for a free connection counts as DNS time here.
  void report_connect_timing(Transfer* t) {
    curl_off_t dns_us = 0, connect_us = 0, tls_us = 0;
    curl_easy_getinfo(t->easy, CURLINFO_NAMELOOKUP_TIME_T, &dns_us);
    curl_easy_getinfo(t->easy, CURLINFO_CONNECT_TIME_T, &connect_us);
    curl_easy_getinfo(t->easy, CURLINFO_APPCONNECT_TIME_T, &tls_us);
    if (connect_us <= 0) return;
    ConnectTiming timing;
    timing.start_ns = t->start_ns;
    timing.dns_done_ns = t->start_ns + dns_us * 1000;
    timing.connected_ns = t->start_ns + connect_us * 1000;
    if (tls_us > 0) timing.tls_done_ns = t->start_ns + tls_us * 1000;
    t->handler->on_connect_timing(timing);
  }

  // Reports headers (and the request-sent time) once, when the final response's headers end.
  void report_headers(Transfer* t) {
    if (t->headers_reported || t->aborted) return;
    t->headers_reported = true;
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    if (!connection_reused(t->easy)) report_connect_timing(t);
    curl_off_t pretransfer_us = 0;
    curl_easy_getinfo(t->easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer_us);
    if (pretransfer_us > 0) t->handler->on_request_sent(t->start_ns + pretransfer_us * 1000);
    t->handler->on_headers(static_cast<int>(status), t->status_line_ns);
  }

  static size_t header_cb(char* data, size_t size, size_t n, void* userdata) {
    auto* t = static_cast<Transfer*>(userdata);
    const size_t len = size * n;
    if (t->headers_reported) return len;  // trailers
    if (!t->status_seen) {
      // The status line: the response's first bytes.
      t->status_seen = true;
      t->status_line_ns = clock_of(t);
      return len;
    }
    if (len <= 2 && (len == 0 || data[0] == '\r' || data[0] == '\n')) {
      long status = 0;
      curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
      if (status >= 100 && status < 200) {
        t->status_seen = false;  // an interim response; the real one follows
        return len;
      }
      owner_of(t)->report_headers(t);
    }
    return len;
  }

  static size_t write_cb(char* data, size_t size, size_t n, void* userdata) {
    auto* t = static_cast<Transfer*>(userdata);
    const size_t len = size * n;
    const int64_t recv_ns = clock_of(t);  // before anything else touches the bytes
    if (t->aborted) return len;
    CurlClient* self = owner_of(t);
    if (!t->headers_reported) self->report_headers(t);
    ++self->callback_depth_;
    t->handler->on_body(std::string_view(data, len), recv_ns);
    --self->callback_depth_;
    return len;
  }

  static int close_socket_cb(void* clientp, curl_socket_t fd) {
    auto* self = static_cast<CurlClient*>(clientp);
    self->forget_socket(fd);
    return close(fd);
  }

  static int socket_cb(CURL*, curl_socket_t fd, int what, void* userp, void*) {
    auto* self = static_cast<CurlClient*>(userp);
    self->on_curl_socket(fd, what);
    return 0;
  }

  static int timer_cb(CURLM*, long timeout_ms, void* userp) {
    static_cast<CurlClient*>(userp)->on_curl_timer(timeout_ms);
    return 0;
  }

  enum SockState : uint8_t { kUnwatched = 0, kActive = 1, kParked = 2 };

  void on_curl_socket(int fd, int what) {
    if (static_cast<size_t>(fd) >= sock_state_.size()) sock_state_.resize(fd + 64, kUnwatched);
    if (what == CURL_POLL_REMOVE) {
      if (sock_state_[fd] == kActive) sock_state_[fd] = kParked;  // keep the registration
      return;
    }
    uint32_t interest = 0;
    if (what & CURL_POLL_IN) interest |= EventLoop::kReadable;
    if (what & CURL_POLL_OUT) interest |= EventLoop::kWritable;
    // Re-watching with an unchanged interest (a parked keep-alive fd reused) costs no syscall.
    Status s = loop_.watch(fd, interest, [this](int wfd, uint32_t ev) { on_fd_event(wfd, ev); });
    sock_state_[fd] = s ? kActive : kUnwatched;
  }

  void forget_socket(int fd) {
    if (fd >= 0 && static_cast<size_t>(fd) < sock_state_.size() && sock_state_[fd] != kUnwatched) {
      loop_.unwatch(fd);
      sock_state_[fd] = kUnwatched;
    }
  }

  void on_fd_event(int fd, uint32_t events) {
    if (static_cast<size_t>(fd) < sock_state_.size() && sock_state_[fd] == kParked) {
      // An idle pooled connection became readable (closed by the server, usually): stop
      // watching it; curl notices when it next checks the connection.
      loop_.unwatch(fd);
      sock_state_[fd] = kUnwatched;
      return;
    }
    int mask = 0;
    if (events & EventLoop::kReadable) mask |= CURL_CSELECT_IN;
    if (events & EventLoop::kWritable) mask |= CURL_CSELECT_OUT;
    if (events & EventLoop::kError) mask |= CURL_CSELECT_ERR;
    drive(fd, mask);
  }

  void on_curl_timer(long timeout_ms) {
    if (timeout_ms < 0) {
      curl_due_ns_ = 0;
      return;  // a pending loop timer fires harmlessly
    }
    const int64_t due = loop_.clock().now_ns() + static_cast<int64_t>(timeout_ms) * 1'000'000;
    curl_due_ns_ = due;
    if (timer_pending_ && timer_due_ns_ <= due) return;  // it fires first and re-arms
    if (timer_pending_) loop_.cancel_timer(timer_id_);
    timer_pending_ = true;
    timer_due_ns_ = due;
    timer_id_ = loop_.add_timer(due, [this] { on_loop_timer(); });
  }

  void on_loop_timer() {
    timer_pending_ = false;
    if (curl_due_ns_ == 0) return;
    const int64_t now = loop_.clock().now_ns();
    if (curl_due_ns_ > now) {
      timer_pending_ = true;
      timer_due_ns_ = curl_due_ns_;
      timer_id_ = loop_.add_timer(curl_due_ns_, [this] { on_loop_timer(); });
      return;
    }
    curl_due_ns_ = 0;
    drive(CURL_SOCKET_TIMEOUT, 0);
  }

  void drive(curl_socket_t fd, int mask) {
    int running = 0;
    ++callback_depth_;
    curl_multi_socket_action(multi_, fd, mask, &running);
    --callback_depth_;
    if (callback_depth_ > 0) return;
    while (!pending_adds_.empty() || !deferred_cancels_.empty()) {
      std::vector<TransferId> cancels;
      cancels.swap(deferred_cancels_);
      for (TransferId id : cancels) cancel(id);
      std::vector<TransferId> adds;
      adds.swap(pending_adds_);
      bool added = false;
      for (TransferId id : adds) added |= add_pending(id);
      if (added) {
        ++callback_depth_;
        curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
        --callback_depth_;
      }
    }
    complete_finished();
  }

  // Adds a transfer whose start() ran inside a callback. Returns false if it failed (reported).
  bool add_pending(TransferId id) {
    auto it = transfers_.find(id);
    if (it == transfers_.end()) return false;  // cancelled meanwhile
    Transfer* t = it->second.get();
    t->start_ns = loop_.clock().now_ns();
    CURLMcode mc = curl_multi_add_handle(multi_, t->easy);
    if (mc == CURLM_OK) return true;
    std::unique_ptr<Transfer> owned = std::move(it->second);
    transfers_.erase(it);
    ResponseHandler* h = owned->handler;
    finish_and_recycle(std::move(owned));
    h->on_complete(ErrorKind::kOther, curl_multi_strerror(mc), loop_.clock().now_ns(), false);
    return false;
  }

  // Moves finished transfers from curl's message queue to ours (stamping their end time).
  void harvest() {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      Transfer* raw = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &raw);
      done_.push_back(Done{raw->id, msg->data.result, loop_.clock().now_ns()});
    }
  }

  void complete_finished() {
    harvest();
    if (in_completions_) return;  // the outer loop below picks them up
    in_completions_ = true;
    for (size_t i = 0; i < done_.size(); ++i) {
      const Done d = done_[i];
      auto it = transfers_.find(d.id);
      if (it == transfers_.end()) continue;
      std::unique_ptr<Transfer> t = std::move(it->second);
      transfers_.erase(it);
      if (d.code == CURLE_OK && !t->headers_reported) report_headers(t.get());
      curl_multi_remove_handle(multi_, t->easy);
      const bool reused = connection_reused(t->easy);
      ErrorKind kind = curl_error_kind(d.code, t->easy, t->request.url.compare(0, 8, "https://") == 0,
                                       t->request.timeout_ns, d.end_ns - t->start_ns);
      std::string message;
      if (kind != ErrorKind::kNone) {
        message = t->error_buf[0] ? t->error_buf : curl_easy_strerror(d.code);
      }
      ResponseHandler* h = t->handler;
      if (t->aborted) kind = ErrorKind::kCancelled;
      finish_and_recycle(std::move(t));
      h->on_complete(kind, message, d.end_ns, reused);  // may start/cancel: done_ may grow
    }
    done_.clear();
    in_completions_ = false;
  }

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

}  // namespace

Result<std::unique_ptr<HttpClient>> make_curl_client(EventLoop& loop, const ClientOptions& options) {
  auto client = std::make_unique<CurlClient>(loop, options);
  if (Status s = client->init(); !s) return tl::unexpected(s.error());
  return std::unique_ptr<HttpClient>(std::move(client));
}

}  // namespace servebench::transport
