// Benchmark scenarios (`--scenario NAME`): a named set of locked options that makes runs
// comparable (AIPerf's scenario locks). inferencex-agentx-mvp, the SemiAnalysis AgentX replay of
// WEKA agent traces, locks:
//   timing       agentic replay: --concurrency lanes, each a trajectory from a random start
//                turn, recycling traces (load/agentic_lanes.h);
//   streaming    --streaming on;
//   ignore_eos   "ignore_eos": true in --extra-inputs (an explicit false breaks the lock);
//   cache_bust   --cache-bust first_turn_prefix (every play of a trace is its own prefix);
//   system_idle_gap_cap  --system-idle-gap-cap-seconds 10;
//   delays       recorded end-to-start gaps (so --use-think-time-only, --ignore-trace-delays,
//                --inter-turn-delay-cap-seconds and --trace-idle-gap-cap-seconds break it);
//   load         no --request-rate, --user-centric-rate or --fixed-schedule;
//   duration     --benchmark-duration 1800 s when unset, at least 900 s.
// An unset option is filled in; a given one that differs is a violation: an error (exit 2, one
// line naming every conflict) unless --unsafe-override, which turns each into a warning and
// stamps submission_valid=false (reason "unsafe_override"). The input must be a weka_trace file
// whatever the override (checked once the file is read: app/workload_setup.cc).
//
// Thread safety: pure functions.
#pragma once

#include "config/benchmark_config.h"
#include "core/result.h"

namespace servebench::config {

inline constexpr const char* kAgentxScenario = "inferencex-agentx-mvp";
inline constexpr int64_t kAgentxDefaultDurationNs = 1800LL * 1'000'000'000;
inline constexpr int64_t kAgentxMinDurationNs = 900LL * 1'000'000'000;
inline constexpr double kAgentxSystemIdleGapCapS = 10.0;

// Applies c->agentic.scenario's locks (no-op without one) and records the outcome in
// c->agentic.outcome. Called after the flags are parsed, before validate().
Status apply_scenario(BenchmarkConfig* c);

// The agentic options' own rules (called by validate()): scenario-only flags need a scenario,
// ratio order, exclusive options.
Status validate_agentic(const BenchmarkConfig& c);

}  // namespace servebench::config
