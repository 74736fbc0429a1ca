// LoadSpec: everything the plan and the worker count need to know about the load, and nothing
// else (no endpoint, dataset or export settings). Built by the run library from the validated
// configuration and the prepared workload, with effective values already resolved (defaults,
// counts implied by an input file), so the load module never reads the configuration.
//
// Thread safety: plain value; immutable once handed to build_plan.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "load/load_types.h"
#include "load/rate_series.h"

namespace servebench::load {

inline constexpr int64_t kNever = INT64_MAX;

// The warm-up's own load shape (AIPerf's --warmup-*): each unset value falls back to the
// profiling phase's. A warm-up rate makes the warm-up open loop (under --warmup-concurrency, or
// the user's --concurrency, as a ceiling) even when profiling is closed loop.
struct WarmupLoad {
  std::optional<double> request_rate;
  std::optional<ArrivalPattern> arrival_pattern;
  std::optional<int64_t> concurrency;
  std::optional<int64_t> prefill_concurrency;
  std::optional<int64_t> grace_ns;  // after the warm-up duration (default: wait for all)
  std::optional<int64_t> concurrency_ramp_ns;
  std::optional<int64_t> prefill_ramp_ns;
  std::optional<int64_t> rate_ramp_ns;
};

struct LoadSpec {
  // Shape of the load (profiling; warm-up uses the same shape).
  std::optional<double> request_rate;  // open loop (requests/s) when set
  ArrivalPattern arrival_pattern = ArrivalPattern::kPoisson;
  double arrival_smoothness = 1.0;  // gamma shape (1 = Poisson)
  // Closed-loop slots, or the ceiling under a rate; nullopt = open loop without a limit.
  std::optional<int64_t> concurrency;
  // The concurrency the user gave, if any: the only limit of a fixed schedule and of
  // user-centric sessions (they have no closed-loop default).
  std::optional<int64_t> concurrency_ceiling;
  std::optional<int64_t> prefill_concurrency;
  int64_t concurrency_ramp_ns = 0;
  int64_t rate_ramp_ns = 0;
  int64_t prefill_ramp_ns = 0;  // prefill-concurrency ramp, stepped like the concurrency ramp
  // Profiling rate over time (request_rate then holds the series' first rate); null = constant.
  std::shared_ptr<const RateSeries> rate_series;

  // When the profiling phase stops.
  std::optional<int64_t> request_count;  // nullopt: the duration or the sessions stop it
  std::optional<int64_t> duration_ns;
  int64_t grace_ns = kNever;  // after the duration, then in-flight is cancelled

  // Warm-up (none when all three are unset).
  std::optional<int64_t> warmup_request_count;
  std::optional<int64_t> warmup_duration_ns;
  std::optional<int64_t> warmup_sessions;  // sessions (or single requests without sessions)
  WarmupLoad warmup_load;

  // Multi-turn sessions and trace replay.
  bool sessions = false;
  std::optional<int64_t> session_count;  // sessions to start in the profiling phase
  bool user_centric = false;             // first turns from the user-centric generator
  // Fixed schedule: intended offsets, ascending, one per request (or per session).
  std::shared_ptr<const std::vector<int64_t>> fixed_offsets_ns;

  std::optional<int64_t> workers_max;  // --workers-max

  bool has_warmup() const { return warmup_request_count || warmup_duration_ns || warmup_sessions; }
};

}  // namespace servebench::load
