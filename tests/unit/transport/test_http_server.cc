#include "unit/transport/test_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace servebench::testing {

namespace {

int listen_loopback(int* port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  listen(fd, 128);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  return fd;
}

}  // namespace

bool TestHttpServer::Request::has_header(const std::string& prefix) const {
  for (const std::string& h : headers) {
    if (h.size() >= prefix.size() && strncasecmp(h.c_str(), prefix.c_str(), prefix.size()) == 0) return true;
  }
  return false;
}

void TestHttpServer::Conn::write(const std::string& bytes) {
  size_t off = 0;
  while (off < bytes.size() && !closed_) {
    ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

void TestHttpServer::Conn::write_chunk(const std::string& bytes) {
  char size_line[32];
  std::snprintf(size_line, sizeof size_line, "%zx\r\n", bytes.size());
  write(size_line + bytes + "\r\n");
}

void TestHttpServer::Conn::reset() {
  linger l{1, 0};
  setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  close();
}

void TestHttpServer::Conn::close() {
  if (closed_) return;
  closed_ = true;
  ::shutdown(fd_, SHUT_RDWR);
}

TestHttpServer::TestHttpServer(Responder responder, std::string greeting)
    : responder_(std::move(responder)), greeting_(std::move(greeting)) {
  listen_fd_ = listen_loopback(&port_);
  acceptor_ = std::thread([this] { accept_loop(); });
}

TestHttpServer::~TestHttpServer() {
  stopping_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);
  acceptor_.join();
  ::close(listen_fd_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : conn_fds_) ::shutdown(fd, SHUT_RDWR);
    acks_ = 1 << 30;  // release responders waiting for acks
  }
  ack_cv_.notify_all();
  for (std::thread& t : conn_threads_) t.join();
  for (int fd : conn_fds_) ::close(fd);
}

std::string TestHttpServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<TestHttpServer::Request> TestHttpServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

void TestHttpServer::ack() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++acks_;
  }
  ack_cv_.notify_all();
}

bool TestHttpServer::wait_acks(int n) {
  std::unique_lock<std::mutex> lock(mu_);
  return ack_cv_.wait_for(lock, std::chrono::seconds(10), [&] { return acks_ >= n; });
}

void TestHttpServer::respond_fixed(Conn& c, const std::string& body, int status) {
  c.write("HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " +
          std::to_string(body.size()) + "\r\n\r\n" + body);
}

void TestHttpServer::accept_loop() {
  while (!stopping_) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (stopping_) return;
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const int id = ++accepts_;
    std::lock_guard<std::mutex> lock(mu_);
    conn_fds_.push_back(fd);
    conn_threads_.emplace_back([this, fd, id] { serve(fd, id); });
  }
}

void TestHttpServer::serve(int fd, int id) {
  Conn conn(fd, id);
  if (!greeting_.empty()) conn.write(greeting_);
  std::string buf;
  char tmp[16384];
  while (!conn.closed()) {
    size_t header_end;
    while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
      if (n <= 0) return;
      buf.append(tmp, static_cast<size_t>(n));
    }
    Request req;
    req.conn_id = id;
    std::string head = buf.substr(0, header_end);
    size_t line_end = head.find("\r\n");
    std::string request_line = head.substr(0, line_end);
    size_t sp1 = request_line.find(' ');
    size_t sp2 = request_line.find(' ', sp1 + 1);
    req.method = request_line.substr(0, sp1);
    req.path = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
    size_t content_length = 0;
    size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
    while (pos < head.size()) {
      size_t e = head.find("\r\n", pos);
      if (e == std::string::npos) e = head.size();
      std::string h = head.substr(pos, e - pos);
      if (strncasecmp(h.c_str(), "content-length:", 15) == 0) content_length = std::stoul(h.substr(15));
      req.headers.push_back(h);
      pos = e + 2;
    }
    buf.erase(0, header_end + 4);
    while (buf.size() < content_length) {
      ssize_t n = ::recv(fd, tmp, sizeof tmp, 0);
      if (n <= 0) return;
      buf.append(tmp, static_cast<size_t>(n));
    }
    req.body = buf.substr(0, content_length);
    buf.erase(0, content_length);
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(req);
    }
    responder_(conn, req);
  }
}

int unused_loopback_port() {
  int port = 0;
  int fd = listen_loopback(&port);
  ::close(fd);
  return port;
}

}  // namespace servebench::testing
