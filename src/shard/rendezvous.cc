#include "shard/rendezvous.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/interrupt.h"

namespace servebench::shard {
namespace {

struct Fd {
  int fd = -1;
  explicit Fd(int f = -1) : fd(f) {}
  Fd(Fd&& o) noexcept : fd(o.fd) { o.fd = -1; }
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd, o.fd);
    return *this;
  }
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

Error fail(const std::string& address, const std::string& why) {
  return Error{ErrorCode::kNetwork, fmt::format("--rendezvous {}: {}", address, why)};
}

bool split_address(const std::string& a, std::string* host, std::string* port) {
  const auto colon = a.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == a.size()) return false;
  *host = a.substr(0, colon);
  *port = a.substr(colon + 1);
  return true;
}

// Waits until fd is readable, the deadline passes or an interrupt comes.
bool wait_readable(int fd, int64_t deadline_ns, const core::Clock& clock) {
  while (!core::interrupt_requested() && clock.now_ns() < deadline_ns) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) > 0) return true;
  }
  return false;
}

// One '\n'-terminated line (without it), read byte by byte: lines are short and few.
bool read_line(int fd, int64_t deadline_ns, const core::Clock& clock, std::string* line) {
  line->clear();
  while (line->size() < 512) {
    if (!wait_readable(fd, deadline_ns, clock)) return false;
    char c = 0;
    if (read(fd, &c, 1) != 1) return false;
    if (c == '\n') return true;
    line->push_back(c);
  }
  return false;
}

bool write_line(int fd, const std::string& line) {
  const std::string s = line + "\n";
  return send(fd, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
}

Result<RendezvousResult> serve(const RendezvousOptions& o, const std::string& port,
                               const core::Clock& clock) {
  Fd listener(socket(AF_INET6, SOCK_STREAM, 0));
  if (listener.fd < 0) return tl::unexpected(fail(o.address, "cannot open a socket"));
  int on = 1, off = 0;
  setsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
  setsockopt(listener.fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_addr = in6addr_any;
  addr.sin6_port = htons(static_cast<uint16_t>(std::atoi(port.c_str())));
  if (bind(listener.fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listener.fd, 1024) != 0)
    return tl::unexpected(fail(o.address, fmt::format("cannot listen on port {}: {}", port, std::strerror(errno))));
  const int64_t deadline = clock.now_ns() + o.timeout_ns;
  std::vector<Fd> peers;
  std::vector<bool> seen(static_cast<size_t>(o.count), false);
  while (static_cast<int32_t>(peers.size()) < o.count - 1) {
    if (!wait_readable(listener.fd, deadline, clock))
      return tl::unexpected(fail(o.address, fmt::format("{} of {} shards arrived before the timeout",
                                                        peers.size() + 1, o.count)));
    Fd peer(accept(listener.fd, nullptr, nullptr));
    if (peer.fd < 0) continue;
    std::string line;
    int idx = -1, cnt = -1;
    char fp[64] = {};
    if (!read_line(peer.fd, clock.now_ns() + 5'000'000'000, clock, &line) ||
        std::sscanf(line.c_str(), "SB1 HELLO %d %d %63s", &idx, &cnt, fp) != 3)
      continue;  // not a shard: ignore it
    if (cnt != o.count || o.fingerprint != fp || idx <= 0 || idx >= o.count || seen[static_cast<size_t>(idx)]) {
      write_line(peer.fd, "SB1 REFUSED not a shard of this plan, or a shard index given twice");
      continue;
    }
    seen[static_cast<size_t>(idx)] = true;
    write_line(peer.fd, fmt::format("SB1 TIME {}", clock.wall_ns()));
    peers.push_back(std::move(peer));
  }
  if (core::interrupt_requested()) return tl::unexpected(fail(o.address, "interrupted"));
  RendezvousResult r;
  r.start_at_wall_ns = clock.wall_ns() + o.lead_ns;
  for (auto& p : peers) write_line(p.fd, fmt::format("SB1 START {}", r.start_at_wall_ns));
  return r;
}

Result<RendezvousResult> join(const RendezvousOptions& o, const std::string& host,
                              const std::string& port, const core::Clock& clock) {
  const int64_t deadline = clock.now_ns() + o.timeout_ns;
  while (!core::interrupt_requested() && clock.now_ns() < deadline) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) == 0) {
      for (addrinfo* a = res; a; a = a->ai_next) {
        Fd s(socket(a->ai_family, a->ai_socktype, a->ai_protocol));
        if (s.fd < 0 || connect(s.fd, a->ai_addr, a->ai_addrlen) != 0) continue;
        freeaddrinfo(res);
        res = nullptr;
        int on = 1;
        setsockopt(s.fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
        const int64_t t1 = clock.wall_ns();
        if (!write_line(s.fd, fmt::format("SB1 HELLO {} {} {}", o.index, o.count, o.fingerprint)))
          break;
        std::string line;
        long long server_ns = 0, start_ns = 0;
        if (!read_line(s.fd, deadline, clock, &line))
          return tl::unexpected(fail(o.address, "shard 0 did not answer"));
        const int64_t t2 = clock.wall_ns();
        if (std::sscanf(line.c_str(), "SB1 TIME %lld", &server_ns) != 1)
          return tl::unexpected(fail(o.address, "shard 0 refused this shard: " + line));
        RendezvousResult r;
        r.rtt_ns = t2 - t1;
        r.clock_offset_ns = (t1 + t2) / 2 - server_ns;
        if (!read_line(s.fd, deadline, clock, &line) ||
            std::sscanf(line.c_str(), "SB1 START %lld", &start_ns) != 1)
          return tl::unexpected(fail(o.address, "no start instant from shard 0 before the timeout"));
        r.start_at_wall_ns = start_ns + r.clock_offset_ns;
        return r;
      }
      if (res) freeaddrinfo(res);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // shard 0 not listening yet
  }
  return tl::unexpected(fail(o.address, core::interrupt_requested() ? "interrupted"
                                                                    : "shard 0 was not reachable before the timeout"));
}

}  // namespace

Result<RendezvousResult> rendezvous(const RendezvousOptions& o, const core::Clock& clock) {
  std::string host, port;
  if (!split_address(o.address, &host, &port))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--rendezvous '{}' is invalid; expected HOST:PORT", o.address));
  if (o.count <= 1) return RendezvousResult{clock.wall_ns(), 0, 0};
  return o.index == 0 ? serve(o, port, clock) : join(o, host, port, clock);
}

}  // namespace servebench::shard
