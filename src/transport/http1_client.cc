// Native HTTP/1.1 client (plain http://) on the EventLoop: non-blocking sockets, keep-alive pool
// per host:port, request bytes built once per start and written with one send(), responses
// parsed by Http1ResponseParser (Beast). Exists because libcurl costs ~3x wrk's CPU per tiny
// request here (docs in scripts/bench_transport.sh and the transport report); it does per
// request one send() and usually one recv(), with no epoll_ctl on a reused connection.
//
// Semantics match the libcurl client (same tests run against both):
// - start() never calls on_complete; immediate failures are reported from the loop.
// - Receive timestamps are read right after recv() returns, before parsing; on_request_sent is
//   the moment the last request byte was accepted by send(); on_headers carries the time of the
//   read that delivered the first response bytes.
// - A reused keep-alive connection that fails before any response byte (the server closed it
//   while idle) is retried once on a new connection, as libcurl does.
// - Sticky sessions: a group keeps "its" connection; a group whose previous connection is busy
//   or gone gets a new one. fresh_connection opens and closes a connection per request.
// - Host names are resolved with getaddrinfo (IPv4 preferred) once per host:port, on first
//   use, on the loop thread. ClientOptions::max_connections is not enforced here.
#include "transport/http1_client.h"

#include <unistd.h>

#include "transport/http1_client_internal.h"

namespace servebench::transport {
namespace http1_internal {

Http1Client::~Http1Client() {
  for (auto& [id, t] : transfers_) {
    if (t->has_timer) loop_.cancel_timer(t->timer);
  }
  for (auto& [fd, c] : conns_) {
    cancel_connect_timer(c.get());
    loop_.unwatch(fd);
    ::close(fd);
  }
  if (deferred_timer_pending_) loop_.cancel_timer(deferred_timer_);
}

Result<HttpClient::TransferId> Http1Client::start(const HttpRequest& request, ResponseHandler* handler) {
  Result<Target*> target = target_for(request.url);
  if (!target) return tl::unexpected(target.error());
  std::unique_ptr<Transfer> t;
  if (!spare_transfers_.empty()) {
    t = std::move(spare_transfers_.back());
    spare_transfers_.pop_back();
  } else {
    t = std::make_unique<Transfer>();
  }
  t->id = ++last_id_;
  t->handler = handler;
  t->handler_depth = &handler_depth_;
  t->target = *target;
  t->fresh = request.fresh_connection;
  t->group = request.connection_group;
  t->timeout_ns = request.timeout_ns;
  build_http1_request(request, (*target)->ep.host_header, &t->wire);
  Transfer* raw = t.get();
  transfers_.emplace(raw->id, std::move(t));
  ++depth_;
  raw->start_ns = loop_.clock().now_ns();
  if (raw->timeout_ns > 0) {
    const TransferId id = raw->id;
    raw->timer = loop_.add_timer(raw->start_ns + raw->timeout_ns, [this, id] { on_timeout(id); });
    raw->has_timer = true;
  }
  ++in_start_;  // a counter: handlers may start transfers from inside start()
  assign_connection(raw);
  --in_start_;
  --depth_;
  return raw->id;
}

void Http1Client::cancel(TransferId id) {
  auto it = transfers_.find(id);
  if (it == transfers_.end() || it->second->finished || it->second->cancel_pending) return;
  if (handler_depth_ > 0) {
    // Inside a handler callback (which may be this transfer's): finishing now would recycle
    // state the callback is still using. Deliver no more data and complete from the loop, as
    // the libcurl client does.
    it->second->cancel_pending = true;
    fail_later(it->second.get(), ErrorKind::kCancelled, "cancelled");
    return;
  }
  ++depth_;
  finish(it->second.get(), ErrorKind::kCancelled, "cancelled", /*keep_conn=*/false);
  --depth_;
  collect();
}

void Http1Client::release_group(uint64_t group) {
  auto it = sticky_.find(group);
  if (it == sticky_.end()) return;
  Conn* c = it->second;
  sticky_.erase(it);
  c->group = 0;
  if (!c->transfer) close_conn(c);
}

Result<Target*> Http1Client::target_for(const std::string& url) {
  // Cache by the scheme://authority prefix; the path varies per request. The last target is
  // compared first, without building the key: most runs have one (a key string per request
  // was an allocation each).
  const std::string_view prefix = std::string_view(url).substr(0, url.find('/', 7));
  if (last_target_ != nullptr && prefix == last_target_key_) return last_target_;
  std::string key(prefix);
  auto it = targets_.find(key);
  if (it != targets_.end()) {
    last_target_key_ = key;
    last_target_ = it->second.get();
    return last_target_;
  }
  Result<Http1Endpoint> ep = resolve_http_url(url);
  if (!ep) return tl::unexpected(ep.error());
  auto target = std::make_unique<Target>();
  target->ep = std::move(*ep);
  last_target_ = target.get();
  last_target_key_ = key;
  targets_.emplace(std::move(key), std::move(target));
  return last_target_;
}

void Http1Client::on_timeout(TransferId id) {
  auto it = transfers_.find(id);
  if (it == transfers_.end() || it->second->finished) return;
  it->second->has_timer = false;
  ++depth_;
  finish(it->second.get(), ErrorKind::kTimeout, "request timeout elapsed", false);
  --depth_;
  collect();
}

void Http1Client::finish(Transfer* t, ErrorKind kind, std::string message, bool keep_conn) {
  if (t->finished) return;
  if (in_start_ > 0) {
    // A failure found synchronously inside start(): report it from the loop instead, and
    // leave the socket alone until then.
    if (!t->cancel_pending) {
      t->cancel_pending = true;
      fail_later(t, kind, std::move(message));
    }
    return;
  }
  t->finished = true;
  const int64_t end_ns = loop_.clock().now_ns();
  if (t->has_timer) {
    loop_.cancel_timer(t->timer);
    t->has_timer = false;
  }
  if (Conn* c = t->conn) {
    c->transfer = nullptr;
    t->conn = nullptr;
    if (kind == ErrorKind::kNone) ++c->served;
    // A response that ended before the whole request was written leaves the connection out
    // of step: never reuse it.
    if (keep_conn && !t->fresh && t->written == t->wire.size()) {
      if (c->group == 0) c->target->idle.push_back(c);
      // A parked keep-alive connection stays registered for reads: no epoll_ctl.
    } else {
      close_conn(c);
    }
  }
  graveyard_.push_back(t->id);
  t->handler->on_complete(kind, message, end_ns, t->reused);
}

void Http1Client::fail_later(Transfer* t, ErrorKind kind, std::string message) {
  deferred_.push_back({t->id, kind, std::move(message)});
  if (!deferred_timer_pending_) {
    deferred_timer_pending_ = true;
    deferred_timer_ = loop_.add_timer(loop_.clock().now_ns(), [this] {
      deferred_timer_pending_ = false;
      std::vector<Deferred> batch;
      batch.swap(deferred_);
      ++depth_;
      for (Deferred& d : batch) {
        auto it = transfers_.find(d.id);
        if (it != transfers_.end()) finish(it->second.get(), d.kind, d.message, false);
      }
      --depth_;
      collect();
    });
  }
}

void Http1Client::collect() {
  if (depth_ > 0) return;
  for (TransferId id : graveyard_) {
    auto it = transfers_.find(id);
    if (it == transfers_.end()) continue;
    recycle(std::move(it->second));
    transfers_.erase(it);
  }
  graveyard_.clear();
  dead_conns_.clear();
}

void Http1Client::recycle(std::unique_ptr<Transfer> t) {
  if (spare_transfers_.size() >= kMaxSpareTransfers) return;
  std::string wire = std::move(t->wire);
  wire.clear();
  *t = Transfer();
  t->wire = std::move(wire);
  spare_transfers_.push_back(std::move(t));
}

}  // namespace http1_internal

Result<std::unique_ptr<HttpClient>> make_http1_client(EventLoop& loop, const ClientOptions& options) {
  return std::unique_ptr<HttpClient>(std::make_unique<http1_internal::Http1Client>(loop, options));
}

}  // namespace servebench::transport
