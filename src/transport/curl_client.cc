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
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "core/env.h"
#include "core/log.h"
#include "transport/curl_client_internal.h"
#include "transport/curl_error_kind.h"

namespace servebench::transport {
namespace curl_internal {

Status CurlClient::init() {
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

CurlClient::~CurlClient() {
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

Result<HttpClient::TransferId> CurlClient::start(const HttpRequest& request, ResponseHandler* handler) {
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

void CurlClient::cancel(TransferId id) {
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

void CurlClient::release_group(uint64_t group) {
  auto it = shares_.find(group);
  if (it == shares_.end()) return;
  auto busy = group_in_flight_.find(group);
  if (busy != group_in_flight_.end() && busy->second > 0) return;  // still in use; keep it
  // No easy handle references the share any more (detached when each transfer ended), so
  // cleanup succeeds and closes the group's connection(s).
  curl_share_cleanup(it->second);
  shares_.erase(it);
}

std::unique_ptr<Transfer> CurlClient::take_transfer() {
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

void CurlClient::recycle(std::unique_ptr<Transfer> t) {
  t->handler = nullptr;
  t->request = HttpRequest{};
  free_transfers_.push_back(std::move(t));
}

void CurlClient::finish_and_recycle(std::unique_ptr<Transfer> t) {
  curl_slist_free_all(t->headers);
  t->headers = nullptr;
  if (const uint64_t g = t->request.connection_group; g != 0) {
    curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
    if (--group_in_flight_[g] <= 0) group_in_flight_.erase(g);
  }
  recycle(std::move(t));
}

bool CurlClient::h2c_reuse_broken() {
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

bool CurlClient::connection_reused(CURL* e) {
  long connects = 0;
  curl_easy_getinfo(e, CURLINFO_NUM_CONNECTS, &connects);
  return connects == 0;
}

CURLSH* CurlClient::share_for(uint64_t group) {
  auto it = shares_.find(group);
  if (it != shares_.end()) return it->second;
  CURLSH* sh = curl_share_init();
  curl_share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
  shares_.emplace(group, sh);
  return sh;
}

void CurlClient::report_connect_timing(Transfer* t) {
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

void CurlClient::report_headers(Transfer* t) {
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

size_t CurlClient::header_cb(char* data, size_t size, size_t n, void* userdata) {
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

size_t CurlClient::write_cb(char* data, size_t size, size_t n, void* userdata) {
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

}  // namespace curl_internal

Result<std::unique_ptr<HttpClient>> make_curl_client(EventLoop& loop, const ClientOptions& options) {
  auto client = std::make_unique<curl_internal::CurlClient>(loop, options);
  if (Status s = client->init(); !s) return tl::unexpected(s.error());
  return std::unique_ptr<HttpClient>(std::move(client));
}

}  // namespace servebench::transport
