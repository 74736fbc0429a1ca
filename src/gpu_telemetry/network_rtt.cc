#include "gpu_telemetry/network_rtt.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "core/log.h"

namespace servebench::gpu_telemetry {

Result<HostPort> host_port_of(const std::string& url) {
  std::string_view rest = url;
  int port = 80;
  if (const size_t p = rest.find("://"); p != std::string_view::npos) {
    if (rest.substr(0, p) == "https") port = 443;
    rest.remove_prefix(p + 3);
  }
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  HostPort hp;
  std::string_view port_text;
  if (!rest.empty() && rest.front() == '[') {
    const size_t close = rest.find(']');
    if (close == std::string_view::npos)
      return make_error(ErrorCode::kInvalidArgument, "bad IPv6 host in " + url);
    hp.host = std::string(rest.substr(1, close - 1));
    if (close + 1 < rest.size() && rest[close + 1] == ':') port_text = rest.substr(close + 2);
  } else {
    const size_t colon = rest.rfind(':');
    hp.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port_text = rest.substr(colon + 1);
  }
  if (hp.host.empty()) return make_error(ErrorCode::kInvalidArgument, "no host in " + url);
  if (!port_text.empty()) {
    port = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9' || port > 65535)
        return make_error(ErrorCode::kInvalidArgument, "bad port in " + url);
      port = port * 10 + (c - '0');
    }
  }
  hp.port = port;
  return hp;
}

Result<int64_t> tcp_connect_rtt_ns(const HostPort& hp, int64_t timeout_ns) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_family = AF_UNSPEC;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(hp.port);
  if (int rc = getaddrinfo(hp.host.c_str(), port.c_str(), &hints, &res); rc != 0 || !res)
    return make_error(ErrorCode::kNetwork, fmt::format("resolve {}: {}", hp.host, gai_strerror(rc)));
  const int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    freeaddrinfo(res);
    return make_error(ErrorCode::kNetwork, std::string("socket: ") + std::strerror(errno));
  }
  const core::Clock& clock = core::SteadyClock::instance();
  const int64_t t0 = clock.now_ns();
  int rc = connect(fd, res->ai_addr, res->ai_addrlen);
  freeaddrinfo(res);
  int err = rc == 0 ? 0 : errno;
  if (rc != 0 && err == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    const int ms = static_cast<int>(timeout_ns / 1'000'000);
    rc = poll(&p, 1, ms);
    if (rc == 0) {
      close(fd);
      return make_error(ErrorCode::kTimeout, fmt::format("connect timed out after {} ms", ms));
    }
    socklen_t len = sizeof(err);
    if (rc < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
  }
  const int64_t t1 = clock.now_ns();
  close(fd);
  if (err != 0) return make_error(ErrorCode::kNetwork, std::string("connect: ") + std::strerror(err));
  return t1 - t0;
}

RttProber::RttProber(std::vector<std::string> urls, int64_t interval_ns,
                     const core::Clock& clock, core::WallAnchor anchor)
    : urls_(std::move(urls)), interval_ns_(interval_ns), clock_(clock), anchor_(anchor) {
  for (const auto& u : urls_) {
    auto hp = host_port_of(u);
    if (!hp) continue;
    bool dup = false;
    for (const auto& t : targets_) dup |= t.host == hp->host && t.port == hp->port;
    if (!dup) targets_.push_back(*hp);
  }
}

RttProber::~RttProber() { stop(); }

void RttProber::start() {
  if (thread_.joinable() || targets_.empty()) return;
  thread_ = std::thread([this] { run(); });
}

void RttProber::probe_all() {
  for (const auto& t : targets_) {
    RttProbe p;
    p.endpoint = fmt::format("{}:{}", t.host, t.port);
    p.wall_ns = anchor_.to_wall_ns(clock_.now_ns());
    auto rtt = tcp_connect_rtt_ns(t, kRttConnectTimeoutNs);
    if (rtt) p.rtt_ns = *rtt;
    else p.error = rtt.error().message;
    probes_.push_back(std::move(p));
  }
}

void RttProber::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_requested_) {
    lock.unlock();
    probe_all();
    lock.lock();
    cv_.wait_for(lock, std::chrono::nanoseconds(interval_ns_), [this] { return stop_requested_; });
  }
}

void RttProber::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_requested_ && !thread_.joinable()) return;
    stop_requested_ = true;
  }
  cv_.notify_all();
  if (!thread_.joinable()) return;
  thread_.join();
  // At least kMinRttSamples good probes per endpoint (a dead endpoint gets that many tries).
  for (int round = 0; round < kMinRttSamples; ++round) {
    std::map<std::string, int> good;
    for (const auto& p : probes_)
      if (p.rtt_ns) ++good[p.endpoint];
    bool short_of = false;
    for (const auto& t : targets_)
      short_of |= good[fmt::format("{}:{}", t.host, t.port)] < kMinRttSamples;
    if (!short_of) break;
    probe_all();
  }
}

std::optional<double> RttProber::mean_rtt_ns() const {
  double sum = 0;
  int64_t n = 0;
  for (const auto& p : probes_) {
    if (!p.rtt_ns) continue;
    sum += static_cast<double>(*p.rtt_ns);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

std::string RttProber::jsonl() const {
  std::string out;
  for (const auto& p : probes_) {
    nlohmann::ordered_json j;
    j["timestamp_ns"] = p.wall_ns;
    j["endpoint"] = p.endpoint;
    j["rtt_ms"] = p.rtt_ns ? nlohmann::ordered_json(*p.rtt_ns / 1e6) : nlohmann::ordered_json();
    j["error"] = p.error.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(p.error);
    out += j.dump() + "\n";
  }
  return out;
}

}  // namespace servebench::gpu_telemetry
