// The run library: one benchmark from a validated configuration to its artifacts, callable by
// `servebench profile` and by anything that runs benchmarks in a loop (sweeps, searches,
// shards) or in a test.
//
// run_benchmark does, in order: export-option checks, the file-descriptor budget, an artifact
// folder probe, tokenizer, workload, plan, the artifact folder (created and test-written before
// anything is sent), KV-cache reset, the load, record processing, artifacts; and returns the facts
// the caller needs to report and to pick an exit code. It never reads or changes process state
// other than RLIMIT_NOFILE (raised to its hard limit) and the process interrupt flag
// (core/interrupt.h), which it polls: set-up loops stop early and a running load drains and
// stops. A signal watcher (signal_watcher.h) raises that flag in the CLI.
//
// Hooks: collectors (telemetry, live UI) attach to the phase hooks. Once set-up succeeded, the
// four hooks are each called exactly once, in order, on the run library's threads (the calling
// thread or its load monitor thread), never on a worker thread: a hook may block briefly (e.g.
// one scrape) but delays the next event while it runs; long work belongs on the collector's
// own thread. No hook is called when set-up fails or is interrupted (nothing was sent).
//
// Thread safety: one run at a time per process (the interrupt flag and RLIMIT_NOFILE are
// process-wide). The config and hooks must outlive the call.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "core/clock.h"
#include "core/result.h"
#include "record/request_record.h"

namespace servebench::app {

// What a hook learns about the run.
struct PhaseInfo {
  std::string artifact_dir;   // the run's artifact folder (exists and is writable)
  core::WallAnchor anchor;    // steady → wall clock for every *_ns below and in the records
  int64_t at_ns = 0;          // steady ns of this event
  int64_t load_start_ns = 0;  // profiling phase start (t0); 0 before it (or if it never ran)
  int64_t load_end_ns = 0;    // see load_ended; 0 before it
  bool interrupted = false;   // an interrupt stopped the load (known from load_ended on)
  uint64_t random_seed = 0;   // the seed the workload was built from (given or drawn)
};

struct RunHooks {
  // Set-up done, the artifact folder ready, KV cache reset: nothing sent yet (warm-up included).
  std::function<void(const PhaseInfo&)> before_load;
  // The profiling phase started (after any warm-up): at_ns = load_start_ns = t0.
  std::function<void(const PhaseInfo&)> load_started;
  // No more profiling requests are issued: the end of --benchmark-duration (the grace period
  // follows), else when the last request finished or was cancelled.
  std::function<void(const PhaseInfo&)> load_ended;
  // Everything drained and processed; artifacts not written yet.
  std::function<void(const PhaseInfo&)> after_grace;
  // Live observers (dashboard, live API). `records`: each token-counted batch (warm-up and
  // profiling), on the record-processing thread before the batch is dropped; it must only
  // fold the batch into its own state and return. `progress`: requests issued so far (all
  // phases), from the load monitor's thread about every 20 ms while the load runs.
  std::function<void(const std::vector<record::RequestRecord>&)> records;
  std::function<void(int64_t issued)> progress;
};

struct RunResult {
  // Suggested process exit code: 0 ok; 1 a --fail-on/--goodput gate failed; 2 usage, config or
  // input error (nothing sent); 3 runtime failure (every request failed, failed KV-cache reset,
  // worker set-up failure, artifact write failure); 128 + signal (130 SIGINT, 143 SIGTERM) when
  // interrupted, after writing every artifact of what ran.
  int exit_code = 0;
  std::string error;         // one line when the run failed ("" otherwise); no prefix
  bool sent = false;         // the load started (records may exist)
  bool interrupted = false;  // stopped by an interrupt (during set-up when !sent)
  int signal_number = 0;     // the interrupting signal (SIGINT when raised without one)
  int64_t ok = 0;            // profiling requests that succeeded / failed (cancelled excluded)
  int64_t failed = 0;
  int workers = 0;
  std::vector<std::string> gate_failures;
  // Why a run that ran ends with exit 3 although requests succeeded (the server became
  // unreachable and stayed so; load/unreachable.h). Empty otherwise.
  std::string failure_reason;
  std::vector<std::string> warnings;
  std::string artifact_dir;  // where the artifacts are ("" when nothing was written)
};

// Runs one benchmark. REQUIRES: config::validate(config) succeeded.
RunResult run_benchmark(const config::BenchmarkConfig& config, const RunHooks& hooks = {});

}  // namespace servebench::app
