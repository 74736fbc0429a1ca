// servebench-mock-driver: a tiny single-threaded epoll load driver for the mock's timing
// benchmark (scripts/mock_bench.sh). It shares no code with src/transport on purpose.
//
// Keeps N keep-alive connections, each sending streamed chat requests back to back (starts
// staggered evenly over one ITL so events do not arrive in lock-step), timestamps each read,
// and reports how far the observed TTFT and token gaps are from the configured values.
//
// usage: servebench-mock-driver --port P [--host 127.0.0.1] [--connections 200]
//          [--duration-s 10 (measured, after a ramp-up of one response time)] [--max-tokens 100] [--ttft-ms 10] [--itl-ms 10] [--scenario S]
// Output: one JSON line with counts, events/s and percentiles (µs) of signed and absolute
// TTFT and gap errors.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

struct Conn {
  int fd = -1;
  std::string buf;
  size_t scan = 0;
  int64_t start_at_ns = 0;  // first send (staggered)
  int64_t sent_ns = 0;
  int64_t last_token_ns = 0;
  int tokens = 0;
  bool active = false;
};

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;
  int connections = 200;
  double duration_s = 10;
  int max_tokens = 100;
  double ttft_ms = 10;
  double itl_ms = 10;
  std::string scenario;
};

double pct(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(v.size())));
  return v[i];
}

void print_dist(const char* name, std::vector<double> v, bool last) {
  std::vector<double> a(v.size());
  std::transform(v.begin(), v.end(), a.begin(), [](double x) { return std::fabs(x); });
  std::sort(v.begin(), v.end());
  std::sort(a.begin(), a.end());
  std::printf(
      "\"%s\":{\"n\":%zu,\"p50_us\":%.1f,\"p99_us\":%.1f,\"min_us\":%.1f,\"max_us\":%.1f,"
      "\"abs_p50_us\":%.1f,\"abs_p90_us\":%.1f,\"abs_p99_us\":%.1f,\"abs_p999_us\":%.1f}%s",
      name, v.size(), pct(v, 50), pct(v, 99), v.empty() ? 0 : v.front(), v.empty() ? 0 : v.back(),
      pct(a, 50), pct(a, 90), pct(a, 99), pct(a, 99.9), last ? "" : ",");
}

}  // namespace

int main(int argc, char** argv) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  // Thousands of connections need more than the usual soft limit of 1024 descriptors.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string f = argv[i], v = argv[i + 1];
    if (f == "--host") o.host = v;
    else if (f == "--port") o.port = std::atoi(v.c_str());
    else if (f == "--connections") o.connections = std::atoi(v.c_str());
    else if (f == "--duration-s") o.duration_s = std::atof(v.c_str());
    else if (f == "--max-tokens") o.max_tokens = std::atoi(v.c_str());
    else if (f == "--ttft-ms") o.ttft_ms = std::atof(v.c_str());
    else if (f == "--itl-ms") o.itl_ms = std::atof(v.c_str());
    else if (f == "--scenario") o.scenario = v;
    else {
      std::fprintf(stderr, "servebench-mock-driver: unknown option %s\n", f.c_str());
      return 2;
    }
  }
  if (o.port <= 0 || o.connections <= 0) {
    std::fprintf(stderr, "servebench-mock-driver: --port and --connections are required\n");
    return 2;
  }
  const std::string body = "{\"model\":\"mock-model\",\"messages\":[{\"role\":\"user\",\"content\":"
                           "\"measure the timing\"}],\"max_tokens\":" +
                           std::to_string(o.max_tokens) + ",\"ignore_eos\":true,\"stream\":true}";
  std::string request = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + o.host +
                        "\r\nContent-Type: application/json\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\n";
  if (!o.scenario.empty()) request += "X-Mock-Scenario: " + o.scenario + "\r\n";
  request += "\r\n" + body;

  const int ep = epoll_create1(0);
  std::vector<Conn> conns(static_cast<size_t>(o.connections));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(o.port));
  inet_pton(AF_INET, o.host.c_str(), &addr.sin_addr);
  const int64_t t0 = now_ns() + 200'000'000;
  // Starts are spread over one whole response, so request boundaries (and their parsing work)
  // arrive uniformly instead of in bursts; samples from the ramp-up are not counted.
  const int64_t response_ns =
      static_cast<int64_t>((o.ttft_ms + o.itl_ms * std::max(o.max_tokens - 1, 0)) * 1e6);
  const int64_t stagger_ns = std::max<int64_t>(response_ns / o.connections, 1);
  const int64_t measure_from_ns = t0 + response_ns + 2 * stagger_ns;
  for (size_t i = 0; i < conns.size(); ++i) {
    Conn& c = conns[i];
    c.fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(c.fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      std::fprintf(stderr, "servebench-mock-driver: connect failed: %s\n", std::strerror(errno));
      return 3;
    }
    int one = 1;
    setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    fcntl(c.fd, F_SETFL, O_NONBLOCK);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
    c.start_at_ns = t0 + static_cast<int64_t>(i) * stagger_ns;
  }
  const int64_t ttft_ns = static_cast<int64_t>(o.ttft_ms * 1e6);
  const int64_t itl_ns = static_cast<int64_t>(o.itl_ms * 1e6);
  const int64_t end_ns = measure_from_ns + static_cast<int64_t>(o.duration_s * 1e9);
  std::vector<double> ttft_err_us, gap_err_us;
  ttft_err_us.reserve(100'000);
  gap_err_us.reserve(4'000'000);
  int64_t events = 0, responses = 0, errors = 0;
  auto send_request = [&](Conn& c, int64_t t) {
    c.buf.clear();
    c.scan = 0;
    c.tokens = 0;
    c.active = true;
    c.sent_ns = t;
    if (write(c.fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) ++errors;
  };
  size_t pending_start = 0;  // connections not started yet are started in index order
  std::vector<epoll_event> evs(1024);
  char rbuf[65536];
  int active = 0;
  while (true) {
    int64_t t = now_ns();
    while (pending_start < conns.size() && conns[pending_start].start_at_ns <= t) {
      send_request(conns[pending_start++], t);
      ++active;
    }
    if (pending_start == conns.size() && active == 0) break;
    int timeout_ms = 50;
    if (pending_start < conns.size()) {
      timeout_ms = static_cast<int>(std::max<int64_t>(0, (conns[pending_start].start_at_ns - t) / 1'000'000));
    }
    const int n = epoll_wait(ep, evs.data(), static_cast<int>(evs.size()), timeout_ms);
    for (int k = 0; k < n; ++k) {
      Conn& c = conns[evs[k].data.u64];
      const ssize_t got = read(c.fd, rbuf, sizeof(rbuf));
      const int64_t ta = now_ns();
      if (got <= 0) {
        if (got < 0 && errno == EAGAIN) continue;
        ++errors;
        epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
        close(c.fd);
        if (c.active) --active;
        c.active = false;
        continue;
      }
      c.buf.append(rbuf, static_cast<size_t>(got));
      static const char kTok[] = "\"delta\":{\"content\":\" ";
      size_t p;
      while ((p = c.buf.find(kTok, c.scan)) != std::string::npos) {
        c.scan = p + sizeof(kTok) - 1;
        ++events;
        if (c.sent_ns < measure_from_ns) {
          // ramp-up: not measured
        } else if (c.tokens == 0) {
          ttft_err_us.push_back(static_cast<double>(ta - c.sent_ns - ttft_ns) / 1e3);
        } else {
          gap_err_us.push_back(static_cast<double>(ta - c.last_token_ns - itl_ns) / 1e3);
        }
        c.last_token_ns = ta;
        ++c.tokens;
      }
      if (c.buf.find("data: [DONE]", c.scan > 16 ? c.scan - 16 : 0) != std::string::npos &&
          c.buf.size() >= 5 && c.buf.compare(c.buf.size() - 5, 5, "0\r\n\r\n") == 0) {
        ++responses;
        if (c.tokens != o.max_tokens) ++errors;
        if (ta < end_ns) {
          send_request(c, now_ns());
        } else {
          c.active = false;
          --active;
        }
      } else if (c.scan + 64 < c.buf.size()) {
        c.scan = c.buf.size() - 64;
      }
    }
  }
  const double secs = static_cast<double>(now_ns() - t0) / 1e9;  // events/s includes the ramp
  std::printf("{\"connections\":%d,\"itl_ms\":%g,\"ttft_ms\":%g,\"responses\":%lld,\"errors\":%lld,"
              "\"token_events\":%lld,\"events_per_s\":%.0f,",
              o.connections, o.itl_ms, o.ttft_ms, static_cast<long long>(responses),
              static_cast<long long>(errors), static_cast<long long>(events),
              static_cast<double>(events) / secs);
  print_dist("ttft_error", ttft_err_us, false);
  print_dist("gap_error", gap_err_us, true);
  std::printf("}\n");
  return errors == 0 ? 0 : 1;
}
