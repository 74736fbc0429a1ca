#include "live/api_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace servebench::live {
namespace {

constexpr int kReadTimeoutMs = 1000;
constexpr size_t kMaxHead = 16 * 1024;

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    default:
      return "Bad Request";
  }
}

void write_all(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

Result<sockaddr_storage> resolve(const std::string& host, int port, socklen_t* len) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  if (host.empty() || getaddrinfo(host.c_str(), service.c_str(), &hints, &res) != 0 || !res)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--api-host '{}' is not an address this machine can listen on; "
                                  "use an IP address such as 127.0.0.1 or 0.0.0.0",
                                  host));
  sockaddr_storage out{};
  std::memcpy(&out, res->ai_addr, res->ai_addrlen);
  *len = res->ai_addrlen;
  freeaddrinfo(res);
  return out;
}

}  // namespace

bool parse_request_line(const std::string& head, std::string* method, std::string* path) {
  const size_t eol = head.find("\r\n");
  if (eol == std::string::npos) return false;
  const std::string line = head.substr(0, eol);
  const size_t sp1 = line.find(' ');
  if (sp1 == std::string::npos || sp1 == 0) return false;
  const size_t sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos || line.compare(sp2 + 1, 5, "HTTP/") != 0) return false;
  *method = line.substr(0, sp1);
  std::string target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  if (target.empty() || target[0] != '/') return false;
  if (const size_t q = target.find('?'); q != std::string::npos) target.resize(q);
  *path = target;
  return true;
}

Result<std::unique_ptr<ApiServer>> ApiServer::start(const std::string& host, int port,
                                                    ApiHandler handler) {
  socklen_t len = 0;
  auto addr = resolve(host, port, &len);
  if (!addr) return tl::unexpected(addr.error());
  const int fd = ::socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return make_error(ErrorCode::kIo, fmt::format("live API: socket(): {}", std::strerror(errno)));
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&*addr), len) != 0 || ::listen(fd, 16) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--api-port {}: cannot listen on {}:{} ({}); choose another "
                                  "port, or 0 for any free one",
                                  port, host, port, why));
  }
  sockaddr_storage bound{};
  socklen_t blen = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &blen);
  const int actual =
      ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                        : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return std::unique_ptr<ApiServer>(new ApiServer(fd, actual, std::move(handler)));
}

ApiServer::ApiServer(int listen_fd, int port, ApiHandler handler)
    : listen_fd_(listen_fd), port_(port), handler_(std::move(handler)) {
  if (::pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
  thread_ = std::thread([this] { loop(); });
}

ApiServer::~ApiServer() {
  if (wake_[1] >= 0) {
    const char c = 'x';
    [[maybe_unused]] const ssize_t n = ::write(wake_[1], &c, 1);
  }
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  if (wake_[0] >= 0) ::close(wake_[0]);
  if (wake_[1] >= 0) ::close(wake_[1]);
}

void ApiServer::loop() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int n = ::poll(fds, wake_[0] >= 0 ? 2 : 1, 200);
    if (n < 0 && errno != EINTR) return;
    if (wake_[0] >= 0 && (fds[1].revents & POLLIN)) return;
    if (n <= 0 || !(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    serve(fd);
    ::close(fd);
  }
}

void ApiServer::serve(int fd) {
  std::string head;
  char buf[4096];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < kMaxHead) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, kReadTimeoutMs) <= 0) return;
    const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) return;
    head.append(buf, static_cast<size_t>(n));
  }
  std::string method, path;
  ApiResponse r;
  if (!parse_request_line(head, &method, &path)) {
    r = {400, "text/plain", "bad request\n"};
  } else if (method != "GET" && method != "HEAD") {
    r = {405, "text/plain", "only GET is served\n"};
  } else {
    r = handler_(path);
  }
  std::string out = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
      "Connection: close\r\n\r\n",
      r.status, reason(r.status), r.content_type, r.body.size());
  if (method != "HEAD") out += r.body;
  write_all(fd, out);
}

}  // namespace servebench::live
