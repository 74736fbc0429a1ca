// Helpers of the result-sink integration tests: the pinned Python oracles (venvs made by
// scripts/sinks_venvs.sh) and a child process that announces "listening on http://HOST:PORT".
#pragma once

#include <cstdlib>
#include <string>

#include "integration/profile/harness.h"

namespace servebench::itest {

inline std::string cache_root() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  return (cache ? std::string(cache) : std::string(home ? home : "") + "/.cache") + "/servebench";
}

// <venv>/bin/python, or "" when the venv is missing (the caller skips, unless
// SERVEBENCH_REQUIRE_ORACLES is set: then the test fails).
inline std::string oracle_python(const std::string& venv) {
  const std::string py = cache_root() + "/" + venv + "/bin/python";
  return fs::exists(py) ? py : "";
}

inline bool oracles_required() {
  const char* v = std::getenv("SERVEBENCH_REQUIRE_ORACLES");
  return v != nullptr && *v != '\0' && std::string(v) != "0";
}

inline std::string source_dir() {
  const char* s = std::getenv("SERVEBENCH_SOURCE_DIR");
  return s ? s : ".";
}

// Starts argv; waits up to `wait_s` for its "listening on http://..." line.
inline bool start_announcing(Server* server, const std::vector<std::string>& argv, double wait_s) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = spawn(argv, fds[1], -1);
  close(fds[1]);
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  char ch;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    if (read(fds[0], &ch, 1) != 1 || ch == '\n') break;
    line.push_back(ch);
  }
  close(fds[0]);
  const size_t colon = line.rfind(':');
  const int port = colon == std::string::npos ? 0 : std::atoi(line.c_str() + colon + 1);
  server->adopt(pid, port);
  return line.rfind("listening on http://", 0) == 0 && port > 0;
}

}  // namespace servebench::itest
