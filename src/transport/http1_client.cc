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
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "transport/http1_client.h"
#include "transport/http1_request.h"
#include "transport/http1_response_parser.h"

namespace servebench::transport {

namespace {

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

  ~Http1Client() override {
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

  Result<TransferId> start(const HttpRequest& request, ResponseHandler* handler) override {
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

  void cancel(TransferId id) override {
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

  size_t in_flight() const override { return transfers_.size() - graveyard_.size(); }

  void release_group(uint64_t group) override {
    auto it = sticky_.find(group);
    if (it == sticky_.end()) return;
    Conn* c = it->second;
    sticky_.erase(it);
    c->group = 0;
    if (!c->transfer) close_conn(c);
  }

 private:
  Result<Target*> target_for(const std::string& url) {
    // Cache by the scheme://authority prefix; the path varies per request.
    std::string key = url.substr(0, url.find('/', 7));
    auto it = targets_.find(key);
    if (it != targets_.end()) return it->second.get();
    Result<Http1Endpoint> ep = resolve_http_url(url);
    if (!ep) return tl::unexpected(ep.error());
    auto target = std::make_unique<Target>();
    target->ep = std::move(*ep);
    Target* raw = target.get();
    targets_.emplace(key, std::move(target));
    return raw;
  }

  void assign_connection(Transfer* t) {
    Conn* c = nullptr;
    Target* target = t->target;
    if (!t->fresh) {
      if (t->group != 0) {
        auto it = sticky_.find(t->group);
        if (it != sticky_.end() && !it->second->transfer && !it->second->connecting) {
          c = it->second;
          remove_idle(c);
        }
      } else {
        while (!target->idle.empty() && !c) {
          c = target->idle.back();
          target->idle.pop_back();
        }
      }
    }
    if (c) {
      t->reused = true;
      attach(t, c);
      write_request(t);
      return;
    }
    open_connection(t);
  }

  void attach(Transfer* t, Conn* c) {
    t->conn = c;
    c->transfer = t;
    t->written = 0;
    t->writes = 0;
    t->got_bytes = false;
    c->parser.start(t);
  }

  void open_connection(Transfer* t) {
    Target* target = t->target;
    t->conn_start_ns = loop_.clock().now_ns();
    int fd = ::socket(target->ep.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      fail_later(t, ErrorKind::kConnect, std::string("socket: ") + std::strerror(errno));
      return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto conn = std::make_unique<Conn>();
    Conn* c = conn.get();
    c->fd = fd;
    c->target = target;
    conns_.emplace(fd, std::move(conn));
    if (t->group != 0 && !t->fresh) {
      auto it = sticky_.find(t->group);
      if (it == sticky_.end() || it->second->closed) {
        sticky_[t->group] = c;
        c->group = t->group;
      }
    }
    t->reused = false;
    attach(t, c);
    int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&target->ep.addr), target->ep.addr_len);
    if (rc != 0 && errno != EINPROGRESS) {
      fail_later(t, ErrorKind::kConnect, std::string("connect: ") + std::strerror(errno));
      return;
    }
    c->connecting = rc != 0;
    if (c->connecting) {
      set_interest(c, EventLoop::kWritable);
      if (options_.connect_timeout_ns > 0) {
        c->has_connect_timer = true;
        c->connect_timer = loop_.add_timer(loop_.clock().now_ns() + options_.connect_timeout_ns,
                                           [this, fd] { on_connect_timeout(fd); });
      }
    } else {
      report_connected(t);
      write_request(t);
    }
  }

  // Host names are resolved once per target (target_for), so connection set-up starts with the
  // name already known: dns_done == start.
  void report_connected(Transfer* t) {
    transport::ConnectTiming timing;
    timing.start_ns = t->conn_start_ns;
    timing.dns_done_ns = t->conn_start_ns;
    timing.connected_ns = loop_.clock().now_ns();
    ++handler_depth_;
    t->handler->on_connect_timing(timing);
    --handler_depth_;
  }

  void set_interest(Conn* c, uint32_t interest) {
    if (c->interest == interest) return;
    c->interest = interest;
    loop_.watch(c->fd, interest, [this](int fd, uint32_t ev) { on_event(fd, ev); });
  }

  void write_request(Transfer* t) {
    Conn* c = t->conn;
    while (t->written < t->wire.size()) {
      ssize_t n = ::send(c->fd, t->wire.data() + t->written, t->wire.size() - t->written, MSG_NOSIGNAL);
      if (n > 0) {
        t->written += static_cast<size_t>(n);
        ++t->writes;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        set_interest(c, EventLoop::kReadable | EventLoop::kWritable);
        return;
      }
      connection_failed(t, std::string("send: ") + std::strerror(errno));
      return;
    }
    ++handler_depth_;
    t->handler->on_request_writes(t->writes);
    t->handler->on_request_sent(loop_.clock().now_ns());
    --handler_depth_;
    if (t->finished || t->cancel_pending) return;
    set_interest(c, EventLoop::kReadable);
  }

  void on_event(int fd, uint32_t events) {
    auto it = conns_.find(fd);
    if (it == conns_.end()) return;
    Conn* c = it->second.get();
    ++depth_;
    Transfer* t = c->transfer;
    if (!t) {
      // An idle pooled connection spoke: the server closed it (or sent junk). Drop it.
      close_conn(c);
    } else if (t->cancel_pending) {
      // Waiting for the deferred cancellation: leave the socket alone until then.
    } else if (c->connecting) {
      int err = 0;
      socklen_t len = sizeof err;
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err != 0) {
        finish(t, ErrorKind::kConnect, std::string("connect: ") + std::strerror(err), false);
      } else {
        c->connecting = false;
        cancel_connect_timer(c);
        report_connected(t);
        if (!t->finished && !t->cancel_pending) write_request(t);
      }
    } else {
      if ((events & EventLoop::kWritable) && t->written < t->wire.size()) write_request(t);
      if (!t->finished && c->transfer == t && (events & (EventLoop::kReadable | EventLoop::kError))) read_response(t);
    }
    --depth_;
    collect();
  }

  void read_response(Transfer* t) {
    Conn* c = t->conn;
    for (int reads = 0; reads < 4; ++reads) {
      ssize_t n = ::recv(c->fd, read_buf_.data(), read_buf_.size(), 0);
      const int64_t now = loop_.clock().now_ns();  // before any parsing
      if (n > 0) {
        t->read_ns = now;
        if (!t->got_bytes) t->first_byte_ns = now;
        t->got_bytes = true;
        std::string err;
        const std::string_view bytes(read_buf_.data(), static_cast<size_t>(n));
        const size_t used = c->parser.feed(bytes, &err);
        if (t->finished || t->cancel_pending) return;  // cancelled from inside a callback
        if (!err.empty()) {
          finish(t, ErrorKind::kOther, "malformed HTTP response: " + err, false);
          return;
        }
        if (c->parser.done()) {
          // Bytes after the response mean the connection is out of step: do not reuse it.
          finish(t, ErrorKind::kNone, "", c->parser.keep_alive() && used == bytes.size());
          return;
        }
        if (static_cast<size_t>(n) < read_buf_.size()) return;  // drained; epoll tells us more
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      // EOF or a reset.
      if (n == 0 && c->parser.feed_eof()) {
        finish(t, ErrorKind::kNone, "", false);
        return;
      }
      connection_failed(t, n == 0 ? "connection closed before the response completed"
                                   : std::string("recv: ") + std::strerror(errno));
      return;
    }
  }

  // The connection broke: retry once on a new connection if it was a reused one that had not
  // produced any response yet, otherwise fail the transfer.
  void connection_failed(Transfer* t, const std::string& why) {
    Conn* c = t->conn;
    if (t->reused && !t->got_bytes && !t->retried) {
      t->retried = true;
      c->transfer = nullptr;
      t->conn = nullptr;
      close_conn(c);
      open_connection(t);
      return;
    }
    finish(t, t->got_bytes || t->written > 0 ? ErrorKind::kStreamReset : ErrorKind::kConnect, why, false);
  }

  void cancel_connect_timer(Conn* c) {
    if (!c->has_connect_timer) return;
    loop_.cancel_timer(c->connect_timer);
    c->has_connect_timer = false;
  }

  void on_connect_timeout(int fd) {
    auto it = conns_.find(fd);
    if (it == conns_.end()) return;
    Conn* c = it->second.get();
    c->has_connect_timer = false;
    if (!c->connecting || !c->transfer) return;
    ++depth_;
    finish(c->transfer, ErrorKind::kConnect, "connect timeout", false);
    --depth_;
    collect();
  }

  void on_timeout(TransferId id) {
    auto it = transfers_.find(id);
    if (it == transfers_.end() || it->second->finished) return;
    it->second->has_timer = false;
    ++depth_;
    finish(it->second.get(), ErrorKind::kTimeout, "request timeout elapsed", false);
    --depth_;
    collect();
  }

  // Ends a transfer: the connection goes back to the pool or is closed, then on_complete.
  void finish(Transfer* t, ErrorKind kind, std::string message, bool keep_conn) {
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

  // Reports a failure found inside start() from the loop instead (start never completes).
  void fail_later(Transfer* t, ErrorKind kind, std::string message) {
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

  void remove_idle(Conn* c) {
    auto& idle = c->target->idle;
    for (size_t i = 0; i < idle.size(); ++i) {
      if (idle[i] == c) {
        idle[i] = idle.back();
        idle.pop_back();
        return;
      }
    }
  }

  void close_conn(Conn* c) {
    if (c->closed) return;
    c->closed = true;
    cancel_connect_timer(c);
    remove_idle(c);
    if (c->group != 0) {
      auto it = sticky_.find(c->group);
      if (it != sticky_.end() && it->second == c) sticky_.erase(it);
    }
    if (c->transfer) {
      c->transfer->conn = nullptr;
      c->transfer = nullptr;
    }
    loop_.unwatch(c->fd);
    ::close(c->fd);
    // Out of the fd-keyed map now (the fd number may be reused at once); freed in collect().
    auto it = conns_.find(c->fd);
    if (it != conns_.end() && it->second.get() == c) {
      dead_conns_.push_back(std::move(it->second));
      conns_.erase(it);
    }
  }

  // Frees finished transfers and closed connections once no callback is on the stack.
  void collect() {
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

  // A finished transfer is kept for the next start(), reset but with its request buffer's
  // capacity: a fresh Transfer and wire string per request were two allocations each time.
  void recycle(std::unique_ptr<Transfer> t) {
    if (spare_transfers_.size() >= kMaxSpareTransfers) return;
    std::string wire = std::move(t->wire);
    wire.clear();
    *t = Transfer();
    t->wire = std::move(wire);
    spare_transfers_.push_back(std::move(t));
  }

  struct Deferred {
    TransferId id;
    ErrorKind kind;
    std::string message;
  };

  EventLoop& loop_;
  ClientOptions options_;
  std::vector<char> read_buf_;
  std::unordered_map<std::string, std::unique_ptr<Target>> targets_;
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

}  // namespace

Result<std::unique_ptr<HttpClient>> make_http1_client(EventLoop& loop, const ClientOptions& options) {
  return std::unique_ptr<HttpClient>(std::make_unique<Http1Client>(loop, options));
}

}  // namespace servebench::transport
