// `servebench selftest [profile flags]`: runs the planned load against servebench-mock (found
// next to this binary) on loopback, with the mock's latencies from --mock-ttft-ms and
// --mock-itl-ms, and reports the client's own limits (experiment/selftest.h):
// selftest_report.{json,txt} in the run's artifact folder, the text on stdout. Exit 0 when the
// verdict is ok, 1 when client-limited, 2 on bad flags, 3 when the mock or the run failed.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/run.h"
#include "app/signal_watcher.h"
#include "cli/commands.h"
#include "config/cli_options.h"
#include "core/log.h"
#include "experiment/selftest.h"
#include "export/artifacts.h"

namespace servebench::cli {
namespace {

namespace fs = std::filesystem;

void say(const std::string& s) { std::fprintf(stderr, "servebench selftest: %s\n", s.c_str()); }

// The CPUs this process may run on (its affinity mask), at least 1.
int usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

int64_t cpu_ns() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto ns = [](const timeval& t) { return t.tv_sec * 1'000'000'000LL + t.tv_usec * 1000LL; };
  return ns(u.ru_utime) + ns(u.ru_stime);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// servebench-mock on an ephemeral loopback port; stopped (SIGTERM) and reaped on destruction.
struct Mock {
  pid_t pid = -1;
  int port = 0;
  Mock() = default;
  Mock(const Mock&) = delete;
  ~Mock() { stop(); }
  void stop() {
    if (pid <= 0) return;
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    pid = -1;
  }
  bool start(const std::vector<std::string>& argv) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid = fork();
    if (pid == 0) {
      // The signal watcher blocked SIGINT/SIGTERM in this process; the mock must get them.
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);
      dup2(fds[1], 1);
      int devnull = open("/dev/null", O_RDWR);
      dup2(devnull, 0);
      close(fds[0]);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(fds[1]);
    std::string line;
    char ch;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      pollfd p{fds[0], POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      if (read(fds[0], &ch, 1) != 1 || ch == '\n') break;
      line.push_back(ch);
    }
    close(fds[0]);
    const size_t colon = line.rfind(':');
    if (line.rfind("listening on http://", 0) != 0 || colon == std::string::npos) return false;
    port = std::atoi(line.c_str() + colon + 1);
    return port > 0;
  }
};

}  // namespace

int run_selftest(int argc, char** argv) {
  app::SignalWatcher watcher("servebench");
  std::string ttft_ms = "20", itl_ms = "5";
  double lag_limit_ms = 1.0, error_limit_ms = 1.0;
  std::vector<std::string> rest = {"selftest"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--mock-ttft-ms" && has_value) ttft_ms = argv[++i];
    else if (a == "--mock-itl-ms" && has_value) itl_ms = argv[++i];
    else if (a == "--lag-limit-ms" && has_value) lag_limit_ms = std::atof(argv[++i]);
    else if (a == "--error-limit-ms" && has_value) error_limit_ms = std::atof(argv[++i]);
    else rest.push_back(a);
  }
  bool has_model = false, has_tokenizer = false;
  for (const auto& a : rest) {
    has_model = has_model || a == "-m" || a == "--model" || a.rfind("--model=", 0) == 0;
    has_tokenizer = has_tokenizer || a.rfind("--tokenizer", 0) == 0;
  }
  if (!has_model) rest.insert(rest.end(), {"-m", "mock-model"});
  if (!has_tokenizer) rest.insert(rest.end(), {"--tokenizer", "builtin"});
  std::vector<const char*> pargv;
  for (const auto& s : rest) pargv.push_back(s.c_str());
  auto parsed = config::parse_profile_args(static_cast<int>(pargv.size()), pargv.data());
  if (!parsed) {
    say(parsed.error().message);
    return 2;
  }
  if (parsed->help) {
    std::fputs("usage: servebench selftest [--mock-ttft-ms 20] [--mock-itl-ms 5] "
               "[--lag-limit-ms 1] [--error-limit-ms 1] PROFILE-LOAD-FLAGS...\n",
               stdout);
    return 0;
  }
  config::BenchmarkConfig cfg = parsed->config;
  core::init_logging(0);
  cfg.ui = config::UiType::kNone;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const std::string mock_bin = (self.parent_path() / "servebench-mock").string();
  if (ec || !fs::exists(mock_bin)) {
    say("servebench-mock not found next to servebench (" + mock_bin + "); build it");
    return 2;
  }
  const fs::path work = fs::path(cfg.artifact_dir) / "selftest";
  fs::create_directories(work, ec);
  const std::string truth = (work / "ground_truth.jsonl").string();
  Mock mock;
  if (!mock.start({mock_bin, "--port", "0", "--host", "127.0.0.1", "--ttft-ms", ttft_ms,
                   "--itl-ms", itl_ms, "--ground-truth", truth, "--model", cfg.model()})) {
    say("servebench-mock did not start (check --mock-ttft-ms / --mock-itl-ms)");
    return 3;
  }
  cfg.urls = {"http://127.0.0.1:" + std::to_string(mock.port)};
  cfg.server_metrics = false;
  cfg.artifact_dir = work.string();
  cfg.experiment.artifact_dir_is_final = true;
  watcher.set_stage(app::Stage::kLoad);
  const int64_t cpu0 = cpu_ns();
  const app::RunResult r = app::run_benchmark(cfg);
  const int64_t cpu = cpu_ns() - cpu0;
  mock.stop();  // flushes its files before they are read
  if (!r.error.empty() || r.artifact_dir.empty()) {
    say("run failed: " + (r.error.empty() ? std::string("no artifacts") : r.error));
    return 3;
  }
  const auto names = exporter::artifact_names(cfg.profile_export_prefix);
  const auto rep = experiment::analyze_selftest(slurp((fs::path(r.artifact_dir) / names.jsonl).string()),
                                                slurp(truth), cpu, lag_limit_ms, error_limit_ms,
                                                usable_cores());
  std::ofstream(work / "selftest_report.json") << experiment::selftest_json(rep);
  const std::string text = experiment::selftest_text(rep);
  std::ofstream(work / "selftest_report.txt") << text;
  std::fputs(text.c_str(), stdout);
  say("report in " + (work / "selftest_report.json").string());
  if (rep.matched == 0) return 3;
  return rep.verdict.rfind("ok", 0) == 0 ? 0 : 1;
}

}  // namespace servebench::cli
