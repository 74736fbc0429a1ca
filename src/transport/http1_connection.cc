// The native HTTP/1.1 client's connections: the keep-alive pool per host:port and sticky
// groups, non-blocking connect, one send() per request, reads into the response parser,
// and the retry of a reused connection that the server closed while it was idle.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "transport/http1_client_internal.h"

namespace servebench::transport::http1_internal {
namespace {

// send() and recv() as the bare system calls. glibc's wrappers are cancellation points, which in
// a multi-threaded process brackets every call with two more calls (enable, then disable
// asynchronous cancellation); servebench never cancels a thread, and these run once per request.
ssize_t sock_send(int fd, const char* data, size_t n) {
  return syscall(SYS_sendto, fd, data, n, MSG_NOSIGNAL, nullptr, 0);
}
ssize_t sock_recv(int fd, char* data, size_t n) {
  return syscall(SYS_recvfrom, fd, data, n, 0, nullptr, nullptr);
}

}  // namespace

void Http1Client::assign_connection(Transfer* t) {
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

void Http1Client::attach(Transfer* t, Conn* c) {
  t->conn = c;
  c->transfer = t;
  t->written = 0;
  t->writes = 0;
  t->got_bytes = false;
  c->parser.start(t);
}

void Http1Client::open_connection(Transfer* t) {
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

void Http1Client::report_connected(Transfer* t) {
  transport::ConnectTiming timing;
  timing.start_ns = t->conn_start_ns;
  timing.dns_done_ns = t->conn_start_ns;
  timing.connected_ns = loop_.clock().now_ns();
  ++handler_depth_;
  t->handler->on_connect_timing(timing);
  --handler_depth_;
}

void Http1Client::set_interest(Conn* c, uint32_t interest) {
  if (c->interest == interest) return;
  c->interest = interest;
  loop_.watch(c->fd, interest, [this](int fd, uint32_t ev) { on_event(fd, ev); });
}

void Http1Client::write_request(Transfer* t) {
  Conn* c = t->conn;
  while (t->written < t->wire.size()) {
    ssize_t n = sock_send(c->fd, t->wire.data() + t->written, t->wire.size() - t->written);
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

void Http1Client::on_event(int fd, uint32_t events) {
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

void Http1Client::read_response(Transfer* t) {
  Conn* c = t->conn;
  for (int reads = 0; reads < 4; ++reads) {
    ssize_t n = sock_recv(c->fd, read_buf_.data(), read_buf_.size());
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

void Http1Client::connection_failed(Transfer* t, const std::string& why) {
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

void Http1Client::cancel_connect_timer(Conn* c) {
  if (!c->has_connect_timer) return;
  loop_.cancel_timer(c->connect_timer);
  c->has_connect_timer = false;
}

void Http1Client::on_connect_timeout(int fd) {
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

void Http1Client::remove_idle(Conn* c) {
  auto& idle = c->target->idle;
  for (size_t i = 0; i < idle.size(); ++i) {
    if (idle[i] == c) {
      idle[i] = idle.back();
      idle.pop_back();
      return;
    }
  }
}

void Http1Client::close_conn(Conn* c) {
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

}  // namespace servebench::transport::http1_internal
