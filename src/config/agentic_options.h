// AgenticOptions: the agentic replay scenario (`--scenario inferencex-agentx-mvp`) and the trace
// replay options that go with it (config/flags_agentic.cc, config/scenario.h, docs/workloads.md).
// Kept in one member of BenchmarkConfig so the rest of the configuration is untouched by them.
//
// Thread safety: plain value type, read-only after validation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace servebench::config {

// What applying a scenario's locks found (config/scenario.h), stamped into the exports.
struct ScenarioOutcome {
  std::vector<std::string> applied_locks;  // "streaming", "cache_bust", ... in application order
  std::vector<std::string> violations;     // one line each; non-empty only with --unsafe-override
  bool submission_valid = true;
  std::vector<std::string> invalid_reasons;  // "unsafe_override", ...
};

struct AgenticOptions {
  std::string scenario;                           // --scenario ("" = none)
  bool unsafe_override = false;                   // --unsafe-override
  std::optional<double> start_min_ratio;          // --trajectory-start-min-ratio (0.25)
  std::optional<double> start_max_ratio;          // --trajectory-start-max-ratio (0.75)
  bool burst_phase_starts = false;                // --burst-phase-starts
  std::optional<bool> allow_dataset_wrap;         // --allow-dataset-wrap / --no-allow-dataset-wrap
  std::optional<int64_t> warmup_grace_ns;         // --agentic-warmup-grace-period (unset: wait)
  std::optional<int64_t> cache_warmup_ns;         // --agentic-cache-warmup-duration (cache pressure)
  std::optional<double> trace_idle_gap_cap_s;     // --trace-idle-gap-cap-seconds (per trace)
  std::optional<double> system_idle_gap_cap_s;    // --system-idle-gap-cap-seconds (whole run)
  bool ignore_trace_delays = false;               // --ignore-trace-delays
  // Set by apply_scenario: the scenario's timing (agentic replay lanes) is on.
  bool replay = false;
  std::optional<ScenarioOutcome> outcome;         // set when a scenario was applied

  double min_ratio() const { return start_min_ratio.value_or(0.25); }
  double max_ratio() const { return start_max_ratio.value_or(0.75); }
};

}  // namespace servebench::config
