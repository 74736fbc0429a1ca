#include "dcgm_exporter.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/clock.h"

namespace servebench::mock {
namespace {

struct Field {
  const char* name;
  const char* type;
  const char* help;
};

constexpr Field kFields[] = {
    {"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter",
     "Total energy consumption since boot (in mJ)."},
    {"DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."},
    {"DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."},
    {"DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."},
    {"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."},
    {"DCGM_FI_PROF_SM_ACTIVE", "gauge", "The ratio of cycles an SM has at least 1 warp assigned."},
    {"DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %)."},
    {"DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %)."},
    {"DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."},
    {"DCGM_FI_DEV_POWER_VIOLATION", "counter",
     "Throttling duration due to power constraints (in us)."},
    {"DCGM_FI_DEV_THERMAL_VIOLATION", "counter",
     "Throttling duration due to thermal constraints (in us)."},
};
constexpr double kFbTotalMib = 81559;

}  // namespace

std::string DcgmGpus::render(int64_t now_ns, int64_t running) {
  const double dt_s = last_ns_ == 0 ? 0.0 : static_cast<double>(now_ns - last_ns_) / 1e9;
  last_ns_ = now_ns;
  const double load = std::min(1.0, static_cast<double>(std::max<int64_t>(running, 0)) /
                                        std::max(1, config_.saturation));
  std::vector<std::vector<double>> v(std::size(kFields), std::vector<double>(config_.gpus));
  for (int g = 0; g < config_.gpus; ++g) {
    const double util = 100.0 * load * std::max(0.0, 1.0 - 0.1 * g);
    const double power = config_.idle_w + (config_.max_w - config_.idle_w) * util / 100.0;
    energy_mj_[g] += power * dt_s * 1000.0;
    const double fb_used = 20000 + 1000.0 * g + 40.0 * static_cast<double>(running);
    const double col[] = {power,    energy_mj_[g],          util, util / 2, fb_used,
                          std::max(0.0, kFbTotalMib - fb_used), 35 + util / 5, util / 100,
                          0,        0,                      0,    0,        0};
    for (size_t f = 0; f < std::size(kFields); ++f) v[f][g] = col[f];
  }
  std::string out;
  for (size_t f = 0; f < std::size(kFields); ++f) {
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", kFields[f].name, kFields[f].help,
                       kFields[f].name, kFields[f].type);
    for (int g = 0; g < config_.gpus; ++g) {
      out += fmt::format(
          "{}{{gpu=\"{}\",UUID=\"GPU-d0c6a000-0000-4000-8000-00000000000{}\",pci_bus_id=\"00000000:"
          "{:02X}:00.0\",device=\"nvidia{}\",modelName=\"{}\",Hostname=\"{}\"}} {}\n",
          kFields[f].name, g, g, 0x18 + g, g, config_.gpu_name, config_.hostname,
          std::string_view(kFields[f].type) == "counter" ? fmt::format("{:.0f}", v[f][g])
                                                         : fmt::format("{:.3f}", v[f][g]));
    }
  }
  return out;
}

Result<std::unique_ptr<DcgmExporter>> DcgmExporter::start(const DcgmConfig& config,
                                                          std::function<int64_t()> running) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(config.port);
  if (getaddrinfo(config.host.c_str(), port.c_str(), &hints, &res) != 0 || res == nullptr)
    return make_error(ErrorCode::kInvalidArgument,
                      "servebench-mock: --dcgm-port: cannot use host " + config.host);
  const int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  const bool ok = fd >= 0 && bind(fd, res->ai_addr, res->ai_addrlen) == 0 && listen(fd, 64) == 0;
  freeaddrinfo(res);
  if (!ok) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("servebench-mock: --dcgm-port {}: {}", config.port, why));
  }
  sockaddr_storage a{};
  socklen_t len = sizeof(a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const uint16_t bound = ntohs(a.ss_family == AF_INET6
                                   ? reinterpret_cast<sockaddr_in6*>(&a)->sin6_port
                                   : reinterpret_cast<sockaddr_in*>(&a)->sin_port);
  return std::unique_ptr<DcgmExporter>(new DcgmExporter(config, std::move(running), fd, bound));
}

DcgmExporter::DcgmExporter(const DcgmConfig& config, std::function<int64_t()> running, int fd,
                           uint16_t port)
    : gpus_(config), running_(std::move(running)), fd_(fd), port_(port) {
  thread_ = std::thread([this] { serve(); });
}

DcgmExporter::~DcgmExporter() { stop(); }

void DcgmExporter::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

void DcgmExporter::serve() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    answer(client);
    close(client);
  }
}

// One request per connection (Connection: close): read the head, answer, done.
void DcgmExporter::answer(int client) {
  std::string head;
  char buf[4096];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
    pollfd p{client, POLLIN, 0};
    if (poll(&p, 1, 2000) <= 0) return;
    const ssize_t n = recv(client, buf, sizeof(buf), 0);
    if (n <= 0) return;
    head.append(buf, static_cast<size_t>(n));
  }
  const bool metrics = head.rfind("GET /metrics ", 0) == 0 || head.rfind("GET /metrics?", 0) == 0;
  const std::string body =
      metrics ? gpus_.render(core::SteadyClock::instance().now_ns(), running_()) : "not found\n";
  const std::string resp = fmt::format(
      "HTTP/1.1 {}\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
      "Content-Length: {}\r\nConnection: close\r\n\r\n{}",
      metrics ? "200 OK" : "404 Not Found", body.size(), body);
  size_t sent = 0;
  while (sent < resp.size()) {
    const ssize_t n = send(client, resp.data() + sent, resp.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<size_t>(n);
  }
}

}  // namespace servebench::mock
