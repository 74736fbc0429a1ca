// Helpers for the relocation and input-file tests: run a binary from a chosen folder with a
// chosen (clean) environment and standard input, with a deadline, and capture its stderr.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "integration/profile/harness.h"

namespace servebench::itest {

struct Exec {
  std::vector<std::string> argv;
  std::string cwd;               // "" = inherit
  std::vector<std::string> env;  // the whole environment ("NAME=value"); empty = none at all
  std::string stdin_path = "/dev/null";
  std::string stderr_path;  // "" = /dev/null
  int stdout_fd = -1;       // -1 = /dev/null
};

inline pid_t spawn_exec(const Exec& e) {
  pid_t pid = fork();
  if (pid == 0) {
    if (!e.cwd.empty() && chdir(e.cwd.c_str()) != 0) _exit(126);
    int devnull = open("/dev/null", O_RDWR);
    int in = open(e.stdin_path.c_str(), O_RDONLY);
    int err = e.stderr_path.empty()
                  ? devnull
                  : open(e.stderr_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    dup2(in >= 0 ? in : devnull, 0);
    dup2(e.stdout_fd >= 0 ? e.stdout_fd : devnull, 1);
    dup2(err >= 0 ? err : devnull, 2);
    std::vector<char*> args, envp;
    for (const auto& a : e.argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const auto& v : e.env) envp.push_back(const_cast<char*>(v.c_str()));
    envp.push_back(nullptr);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  return pid;
}

struct ExecResult {
  int exit_code = -1;
  bool timed_out = false;
  double wall_s = 0;
  std::string stderr_text;
};

// Runs to completion or kills at the deadline.
inline ExecResult run_exec(const Exec& e, double timeout_s) {
  ExecResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = spawn_exec(e);
  int status = 0;
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (!e.stderr_path.empty()) r.stderr_text = read_file(e.stderr_path);
  return r;
}

// Starts a mock server process described by `e` (its stdout must be free) and adopts it into
// `server` once it prints "listening on http://HOST:PORT". False on failure.
inline bool start_server(Exec e, Server* server) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  e.stdout_fd = fds[1];
  const pid_t pid = spawn_exec(e);
  close(fds[1]);
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  char ch;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    if (read(fds[0], &ch, 1) != 1 || ch == '\n') break;
    line.push_back(ch);
  }
  // The read end stays open (a mock that writes more to stdout must not get SIGPIPE).
  const size_t colon = line.rfind(':');
  const int port = colon == std::string::npos ? 0 : std::atoi(line.c_str() + colon + 1);
  server->adopt(pid, port);
  return line.rfind("listening on http://", 0) == 0 && port > 0;
}

// Lines of `text` that are not empty.
inline std::vector<std::string> nonempty_lines(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c != '\n') {
      cur.push_back(c);
      continue;
    }
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace servebench::itest
