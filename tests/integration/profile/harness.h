// Integration-test harness for `servebench profile`: starts servebench-mock (or another server)
// on an ephemeral loopback port, runs the real servebench binary, and loads its artifacts.
// Processes are started with fork/exec and always reaped; a run past its deadline is killed and
// the test fails.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace servebench::itest {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// $SERVEBENCH_BIN_DIR, else the folder of this test binary (servebench and servebench-mock are
// built next to it).
inline std::string bin_dir() {
  if (const char* d = std::getenv("SERVEBENCH_BIN_DIR"); d && *d) return d;
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("build/bin") : self.parent_path().string();
}

// Sets an environment variable for a scope (a null value leaves it as it is) and puts back what
// it was (or unsets it) when the scope ends.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (value == nullptr) return;
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    ::setenv(name, value, 1);
    set_ = true;
  }
  ~ScopedEnv() {
    if (!set_) return;
    had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
  bool set_ = false;
};

inline std::string make_temp_dir(const std::string& tag) {
  std::string tmpl = (fs::temp_directory_path() / ("sb-profile-" + tag + "-XXXXXX")).string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  const char* d = mkdtemp(buf.data());
  return d ? d : "";
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<Json> read_jsonl(const std::string& path) {
  std::vector<Json> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(Json::parse(line));
  return out;
}

// fork/exec argv with stdout and stderr to the given fds (-1 = /dev/null). With `realtime`, the
// child asks for SCHED_FIFO priority 10 (ignored where not permitted), so timing checks measure
// servebench and the mock rather than whatever else shares the machine's cores.
inline pid_t spawn(const std::vector<std::string>& argv, int out_fd, int err_fd, bool realtime = false) {
  pid_t pid = fork();
  if (pid == 0) {
    if (realtime) {
      sched_param sp{};
      sp.sched_priority = 10;
      sched_setscheduler(0, SCHED_FIFO, &sp);
    }
    int devnull = open("/dev/null", O_RDWR);
    dup2(out_fd >= 0 ? out_fd : devnull, 1);
    dup2(err_fd >= 0 ? err_fd : devnull, 2);
    dup2(devnull, 0);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// A server process whose first stdout line is "listening on http://HOST:PORT".
class Server {
 public:
  Server() = default;
  Server(const Server&) = delete;
  ~Server() { stop(); }

  // Starts servebench-mock with `args` (plus --port 0). Returns false on failure.
  bool start_mock(const std::vector<std::string>& args, bool realtime = false) {
    std::vector<std::string> argv = {bin_dir() + "/servebench-mock", "--port", "0"};
    argv.insert(argv.end(), args.begin(), args.end());
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid_ = spawn(argv, fds[1], -1, realtime);
    close(fds[1]);
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    char ch;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{fds[0], POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      if (read(fds[0], &ch, 1) != 1) break;
      if (ch == '\n') break;
      line.push_back(ch);
    }
    out_fd_ = fds[0];
    const size_t colon = line.rfind(':');
    if (line.rfind("listening on http://", 0) != 0 || colon == std::string::npos) return false;
    port_ = std::atoi(line.c_str() + colon + 1);
    return port_ > 0;
  }

  // Stops the process (SIGTERM, then SIGKILL) and reaps it, so its files are complete.
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 300; ++i) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    if (out_fd_ >= 0) close(out_fd_);
    out_fd_ = -1;
  }

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const { return pid_; }
  void adopt(pid_t pid, int port) {
    pid_ = pid;
    port_ = port;
  }

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int port_ = 0;
};

struct RunResult {
  int exit_code = -1;
  bool timed_out = false;
  double wall_s = 0;
  std::string stderr_text;
  std::string artifact_root;  // --artifact-dir given
  std::string artifact_dir;   // the run's subfolder (empty if none)

  Json summary() const { return Json::parse(read_file(artifact_dir + "/profile_export_aiperf.json")); }
  std::vector<Json> records() const { return read_jsonl(artifact_dir + "/profile_export.jsonl"); }
};

// A finished child process: exit code (128 + signal when killed) and what it wrote.
struct Proc {
  int exit_code = -1;
  std::string out, err;
};

// Runs argv to completion with stdout and stderr captured through files in `scratch`.
inline Proc run_process(const std::string& scratch, const std::vector<std::string>& argv) {
  const std::string out_path = scratch + "/cmd_out.txt", err_path = scratch + "/cmd_err.txt";
  int out_fd = open(out_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  pid_t pid = spawn(argv, out_fd, err_fd);
  close(out_fd);
  close(err_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  Proc p;
  p.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  p.out = read_file(out_path);
  p.err = read_file(err_path);
  return p;
}

// Runs `servebench profile <args> --artifact-dir <dir>/art -q`. With sigint_after_s > 0, sends
// SIGINT once after that many seconds.
inline RunResult run_profile(const std::string& dir, std::vector<std::string> args, double timeout_s = 60,
                             double sigint_after_s = 0, bool realtime = false) {
  RunResult r;
  r.artifact_root = dir + "/art";
  std::vector<std::string> argv = {bin_dir() + "/servebench", "profile"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--artifact-dir", r.artifact_root, "-q"});
  const std::string err_path = dir + "/stderr.txt";
  int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = spawn(argv, -1, err_fd, realtime);
  close(err_fd);
  bool sent_sigint = false;
  int status = 0;
  for (;;) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (sigint_after_s > 0 && !sent_sigint && elapsed >= sigint_after_s) {
      kill(pid, SIGINT);
      sent_sigint = true;
    }
    if (elapsed > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.stderr_text = read_file(err_path);
  std::error_code ec;
  if (fs::exists(r.artifact_root, ec)) {
    for (const auto& e : fs::directory_iterator(r.artifact_root, ec))
      if (e.is_directory()) r.artifact_dir = e.path().string();
  }
  return r;
}

inline double metric_avg(const Json& summary, const std::string& tag, const std::string& stat = "avg") {
  return summary.at(tag).at(stat).get<double>();
}

// Profile arguments for servebench-mock with the whitespace tokenizer and a 32-token ISL, then
// `extra`.
inline std::vector<std::string> simple_mock_args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "mock-model", "--tokenizer", "simple", "--isl", "32"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// One run of servebench against a fresh servebench-mock that records every request it receives:
// the mock gets `mock_args` plus --record-requests, servebench `head` + -u URL + `args`.
struct MockRun {
  RunResult r;
  std::vector<Json> server;  // the mock's request records, in arrival order
};

inline MockRun run_with_recording_mock(const std::string& dir, std::vector<std::string> mock_args,
                                       std::vector<std::string> head, const std::vector<std::string>& args,
                                       double timeout_s) {
  MockRun out;
  Server mock;
  mock_args.insert(mock_args.end(), {"--record-requests", dir + "/rec.jsonl"});
  if (!mock.start_mock(mock_args)) {
    ADD_FAILURE() << "servebench-mock did not start";
    return out;
  }
  head.insert(head.end(), {"-u", mock.url()});
  head.insert(head.end(), args.begin(), args.end());
  out.r = run_profile(dir, head, timeout_s);
  mock.stop();
  out.server = read_jsonl(dir + "/rec.jsonl");
  std::stable_sort(out.server.begin(), out.server.end(), [](const Json& a, const Json& b) {
    return a.at("received_steady_ns").get<int64_t>() < b.at("received_steady_ns").get<int64_t>();
  });
  return out;
}

}  // namespace servebench::itest
