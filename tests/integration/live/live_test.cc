// servebench profile's live display and live API, end to end against servebench-mock:
//   - under a pseudo-terminal (forkpty) --ui dashboard redraws a multi-line frame in place;
//   - without a terminal, plain progress lines (no escape codes), one per 5 s and a last one;
//   - --api-port 0: /healthz, /api/progress (valid JSON, completed never goes back),
//     /api/metrics, /api/config (no secret), /metrics (parsable Prometheus text) while it runs;
//   - bad --ui-type / a busy --api-port: one line, exit 2.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pty.h>
#include <sys/socket.h>
#include <termios.h>

#include <regex>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

const std::string kSecret = "sk-live-secret-7f3a9c2e51";

std::vector<std::string> base_args(const Server& mock) {
  return {bin_dir() + "/servebench",
          "profile",
          "-m",
          "mock-model",
          "--tokenizer",
          "simple",
          "-u",
          mock.url(),
          "--streaming",
          "--api-key",
          kSecret};
}

struct PtyRun {
  int exit_code = -1;
  std::string output;
};

// Runs argv with stdin/stdout/stderr on a 100x40 pseudo-terminal; returns what it printed.
PtyRun run_in_pty(const std::vector<std::string>& argv, double timeout_s,
                  double sigint_after_s = 0) {
  PtyRun r;
  int master = -1;
  winsize ws{};
  ws.ws_col = 100;
  ws.ws_row = 40;
  const pid_t pid = forkpty(&master, nullptr, nullptr, &ws);
  if (pid == 0) {
    setenv("TERM", "xterm", 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(timeout_s);
  bool sent_sigint = false;
  char buf[4096];
  for (;;) {
    if (sigint_after_s > 0 && !sent_sigint &&
        std::chrono::steady_clock::now() > start + std::chrono::duration<double>(sigint_after_s)) {
      kill(pid, SIGINT);
      sent_sigint = true;
    }
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 100) > 0) {
      const ssize_t n = read(master, buf, sizeof(buf));
      if (n <= 0) break;  // EIO once the child closed the terminal
      r.output.append(buf, static_cast<size_t>(n));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      break;
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(master);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(LiveDisplay, DashboardRedrawsInPlaceUnderAPseudoTerminal) {
  const std::string dir = make_temp_dir("live-pty");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "5"}));
  auto argv = base_args(mock);
  argv.insert(argv.end(), {"--request-rate", "25", "--request-count", "40", "--ui", "dashboard",
                           "--artifact-dir", dir + "/art", "-q"});
  const PtyRun r = run_in_pty(argv, 60);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GE(count(r.output, "servebench  phase"), 3u) << r.output;  // several frames at 4 Hz
  EXPECT_GE(count(r.output, "F\x1b[J"), 2u);  // each redraw moves up over the last frame
  EXPECT_NE(r.output.find("phase \x1b[32mprofiling"), std::string::npos);
  EXPECT_NE(r.output.find("40/40 req"), std::string::npos);  // the final frame
  EXPECT_NE(r.output.find("TTFT"), std::string::npos);
  EXPECT_EQ(r.output.find(kSecret), std::string::npos);
}

TEST(LiveDisplay, CtrlCWithTheDashboardStillWritesEverything) {
  const std::string dir = make_temp_dir("live-sigint");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "5"}));
  auto argv = base_args(mock);
  argv.insert(argv.end(), {"--request-rate", "20", "--request-count", "1000", "--ui",
                           "dashboard", "--artifact-dir", dir + "/art", "-q"});
  const PtyRun r = run_in_pty(argv, 60, 1.5);
  EXPECT_EQ(r.exit_code, 130) << r.output;
  EXPECT_NE(r.output.find("phase \x1b[33mdone"), std::string::npos);  // the last frame
  std::string run_dir;
  for (const auto& e : fs::directory_iterator(dir + "/art")) run_dir = e.path().string();
  ASSERT_FALSE(run_dir.empty());
  const Json summary = Json::parse(read_file(run_dir + "/profile_export_aiperf.json"));
  EXPECT_TRUE(summary["was_cancelled"].get<bool>());
  EXPECT_GT(summary["request_count"]["avg"].get<double>(), 0);
  EXPECT_LT(summary["request_count"]["avg"].get<double>(), 1000);
  EXPECT_FALSE(read_jsonl(run_dir + "/profile_export.jsonl").empty());
}

TEST(LiveDisplay, SimpleLineRewritesOneLineUnderAPseudoTerminal) {
  const std::string dir = make_temp_dir("live-simple");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "5"}));
  auto argv = base_args(mock);
  argv.insert(argv.end(), {"--request-rate", "25", "--request-count", "30", "--ui", "simple",
                           "--artifact-dir", dir + "/art", "-q"});
  const PtyRun r = run_in_pty(argv, 60);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GE(count(r.output, "\r"), 3u);
  EXPECT_GE(count(r.output, "\x1b[K"), 3u);
  EXPECT_EQ(count(r.output, "servebench  phase"), 0u);
  EXPECT_NE(r.output.find("done 100% 30/30 req"), std::string::npos) << r.output;
}

struct HttpReply {
  int status = 0;
  std::string body;
};

HttpReply http_get(int port, const std::string& path) {
  HttpReply out;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    close(fd);
    return out;
  }
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
  [[maybe_unused]] ssize_t w = send(fd, req.data(), req.size(), 0);
  std::string text;
  char buf[8192];
  ssize_t n;
  while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) text.append(buf, static_cast<size_t>(n));
  close(fd);
  if (text.rfind("HTTP/1.1 ", 0) != 0) return out;
  out.status = std::atoi(text.c_str() + 9);
  const size_t body = text.find("\r\n\r\n");
  if (body != std::string::npos) out.body = text.substr(body + 4);
  return out;
}

// The port from "servebench profile: live API on http://127.0.0.1:PORT/".
int wait_for_api_port(const std::string& err_path, double timeout_s) {
  const std::regex re(R"(live API on http://127\.0\.0\.1:(\d+)/)");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch m;
    const std::string text = read_file(err_path);
    if (std::regex_search(text, m, re)) return std::stoi(m[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

void expect_prometheus_text(const std::string& text) {
  const std::regex sample(
      R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? [-+0-9.eE]+$)");
  std::istringstream in(text);
  std::string line;
  int samples = 0;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) continue;
    EXPECT_TRUE(std::regex_match(line, sample)) << line;
    ++samples;
  }
  EXPECT_GT(samples, 10);
}

TEST(LiveApi, EndpointsDuringARunAndPlainLinesWithoutATerminal) {
  const std::string dir = make_temp_dir("live-api");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "5"}));
  auto argv = base_args(mock);
  argv.insert(argv.end(), {"--request-rate", "20", "--benchmark-duration", "5.6", "--ui", "simple",
                           "--api-port", "0", "--artifact-dir", dir + "/art", "-q"});
  const std::string err_path = dir + "/stderr.txt";
  int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  const pid_t pid = spawn(argv, -1, err_fd);
  close(err_fd);
  const int port = wait_for_api_port(err_path, 20);
  ASSERT_GT(port, 0) << read_file(err_path);

  std::vector<int64_t> completed;
  std::vector<std::string> bodies;
  bool saw_profiling = false, saw_metrics = false;
  int64_t max_in_flight = 0;
  int status = 0;
  for (int i = 0; i < 400; ++i) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    const HttpReply p = http_get(port, "/api/progress");
    if (p.status == 200) {
      const Json j = Json::parse(p.body);  // throws (fails the test) when invalid
      completed.push_back(j.at("completed").get<int64_t>());
      max_in_flight = std::max(max_in_flight, j.at("in_flight").get<int64_t>());
      EXPECT_GE(j.at("issued").get<int64_t>(), completed.back());
      saw_profiling |= j.at("phase") == "profiling";
      bodies.push_back(p.body);
    }
    if (saw_profiling && !saw_metrics && !completed.empty() && completed.back() >= 20) {
      saw_metrics = true;
      const HttpReply h = http_get(port, "/healthz");
      EXPECT_EQ(h.status, 200);
      const HttpReply m = http_get(port, "/api/metrics");
      ASSERT_EQ(m.status, 200);
      const Json mj = Json::parse(m.body);
      EXPECT_GT(mj["time_to_first_token"]["overall"]["p50"].get<double>(), 15.0);  // mock: 20 ms
      EXPECT_GT(mj["request_throughput"]["window"].get<double>(), 5.0);
      const HttpReply c = http_get(port, "/api/config");
      ASSERT_EQ(c.status, 200);
      EXPECT_TRUE(Json::parse(c.body).is_object());
      EXPECT_NE(c.body.find("mock-model"), std::string::npos);
      const HttpReply prom = http_get(port, "/metrics");
      ASSERT_EQ(prom.status, 200);
      expect_prometheus_text(prom.body);
      EXPECT_EQ(http_get(port, "/nope").status, 404);
      bodies.insert(bodies.end(), {m.body, c.body, prom.body});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (waitpid(pid, &status, WNOHANG) == 0) waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << read_file(err_path);
  EXPECT_TRUE(saw_profiling);
  EXPECT_TRUE(saw_metrics);
  EXPECT_GT(max_in_flight, 0);  // 20 req/s of ~100 ms requests: a few at any time
  ASSERT_GE(completed.size(), 10u);
  for (size_t i = 1; i < completed.size(); ++i) EXPECT_GE(completed[i], completed[i - 1]);
  for (const auto& b : bodies) EXPECT_EQ(b.find(kSecret), std::string::npos) << b;

  // Not a terminal: plain lines, no escape codes: one after 5 s and the last one.
  const std::string err = read_file(err_path);
  EXPECT_EQ(err.find('\x1b'), std::string::npos);
  EXPECT_EQ(err.find('\r'), std::string::npos);
  EXPECT_GE(count(err, "servebench: profiling"), 1u) << err;
  EXPECT_EQ(count(err, "servebench: done 100%"), 1u) << err;
  EXPECT_EQ(err.find(kSecret), std::string::npos);
}

TEST(LiveApi, BadUiOrBusyPortIsAOneLineUsageError) {
  const std::string dir = make_temp_dir("live-bad");
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r =
      run_profile(dir, {"-m", "m", "--tokenizer", "simple", "-u", mock.url(), "--ui", "fancy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--ui-type 'fancy' is invalid; expected dashboard, simple or none"),
            std::string::npos)
      << r.stderr_text;
  // The mock's own port is taken.
  r = run_profile(dir, {"-m", "m", "--tokenizer", "simple", "-u", mock.url(), "--api-port",
                        std::to_string(mock.port())});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--api-port"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1);
  r = run_profile(dir,
                  {"-m", "m", "--tokenizer", "simple", "-u", mock.url(), "--api-port", "70000"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace servebench::itest
