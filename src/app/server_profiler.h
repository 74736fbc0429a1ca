// The server profiler (AIPerf's --server-profiler, --server-profiler-start-path/-stop-path/
// -timeout-seconds): POST the start path (vLLM's /start_profile) to every unique origin of the
// --url values before the profiling phase and the stop path (/stop_profile) after it, so the
// server's trace covers exactly the measured load, not the warm-up.
//
// AIPerf's semantics, which this follows: a start that fails is fatal (the origins already
// started are stopped, in reverse order, and the run stops with exit 3 before the profiling
// load); a stop that fails is a warning. Each POST has an empty body, the benchmark's
// credential and -H headers, its own connection, and `timeout_ns`; success is any 2xx.
//
// When it happens in servebench: without a warm-up the start is posted right before the load
// (start() from the run library); with a warm-up it is posted from the load_started hook, the
// instant the profiling phase began, so its first requests may precede the start by the POST's
// round trip. The stop is posted from after_grace: every profiling request has finished.
//
// Thread safety: start() and the hooks run on the run library's threads, one at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/readiness.h"
#include "app/run.h"
#include "core/result.h"

namespace servebench::app {

struct ServerProfilerOptions {
  std::vector<std::string> urls;  // --url values
  std::string start_path = "/start_profile";
  std::string stop_path = "/stop_profile";
  int64_t timeout_ns = 30'000'000'000;
  std::vector<std::string> headers;
  bool verify_tls = true;
};

class ServerProfiler {
 public:
  explicit ServerProfiler(ServerProfilerOptions options, FetchFn fetch = nullptr);
  // POSTs the start path to every origin; on failure stops those already started.
  Status start();
  // POSTs the stop path to every started origin; returns one warning per failure.
  std::vector<std::string> stop();
  // `hooks` with start at load_started (when `start_in_hook`) and stop at after_grace; failures
  // in hooks become warnings (take_warnings).
  RunHooks wrap(const RunHooks& hooks, bool start_in_hook);
  std::vector<std::string> take_warnings() { return std::move(warnings_); }
  const std::vector<std::string>& origins() const { return origins_; }

 private:
  Result<int> post(const std::string& origin, const std::string& path);

  ServerProfilerOptions options_;
  FetchFn fetch_;
  std::vector<std::string> origins_;
  size_t started_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace servebench::app
