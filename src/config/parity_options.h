// ParityOptions: the `servebench profile` settings that complete AIPerf's `profile` flag set
// (config/flags_parity.cc): the warm-up's own load shape, a request-rate series, the failed-
// request threshold, model and URL selection, waiting for the model, the server profiler, and
// how the run talks (log level, stats interval). Kept in one member of BenchmarkConfig so the
// rest of the configuration is untouched by them.
//
// Thread safety: plain value type, read-only after validation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "load/load_types.h"

namespace servebench::config {

// --warmup-*: each unset value falls back to the profiling phase's (AIPerf's rule).
struct WarmupShape {
  std::optional<int64_t> concurrency;              // --warmup-concurrency
  std::optional<int64_t> prefill_concurrency;      // --warmup-prefill-concurrency
  std::optional<double> request_rate;              // --warmup-request-rate
  std::optional<load::ArrivalPattern> arrival_pattern;  // --warmup-arrival-pattern
  std::optional<int64_t> grace_ns;                 // --warmup-grace-period (default: infinite)
  std::optional<int64_t> concurrency_ramp_ns;      // --warmup-concurrency-ramp-duration
  std::optional<int64_t> prefill_ramp_ns;          // --warmup-prefill-concurrency-ramp-duration
  std::optional<int64_t> rate_ramp_ns;             // --warmup-request-rate-ramp-duration
  bool any() const {
    return concurrency || prefill_concurrency || request_rate || arrival_pattern || grace_ns ||
           concurrency_ramp_ns || prefill_ramp_ns || rate_ramp_ns;
  }
};

// One point of --request-rate-series: from `time_ns` on, the rate moves linearly to the next
// point's; after the last point it stays.
struct RatePoint {
  int64_t time_ns = 0;
  double qps = 0;
};

enum class ModelSelection { kRoundRobin, kRandom, kWeighted };
enum class WaitMode { kModels, kInference, kBoth };

struct ParityOptions {
  WarmupShape warmup;
  std::string request_rate_series_path;   // --request-rate-series ("" = none)
  std::vector<RatePoint> request_rate_series;  // its points, ascending in time
  std::optional<double> failed_request_threshold;  // --failed-request-threshold (ratio 0..1)
  std::optional<int64_t> prefill_concurrency_ramp_ns;  // --prefill-concurrency-ramp-duration

  ModelSelection model_selection = ModelSelection::kRoundRobin;  // --model-selection-strategy
  std::vector<double> model_weights;  // weighted: one per model (from "name:weight" models)
  std::string url_strategy = "round_robin";  // --url-strategy (AIPerf's only choice)

  int64_t wait_for_model_timeout_ns = 0;  // --wait-for-model-timeout (0 = do not wait)
  WaitMode wait_for_model_mode = WaitMode::kInference;
  int64_t wait_for_model_interval_ns = 5'000'000'000;

  bool server_profiler = false;  // --server-profiler (implied by its path/timeout flags)
  std::string server_profiler_start_path = "/start_profile";
  std::string server_profiler_stop_path = "/stop_profile";
  int64_t server_profiler_timeout_ns = 30'000'000'000;

  std::string request_content_type = "application/json";  // --request-content-type
  std::string log_level = "INFO";                         // --log-level
  std::optional<int64_t> stats_interval_ns;               // --stats-interval

  // AIPerf flags that name AIPerf internals, as given: accepted, logged once, not used.
  std::vector<std::string> internal_flags_given;
};

// Parses AIPerf's request-rate-series JSON ({"points": [{"time_s": t, "qps": q}, ...]}).
// `source` names the input in errors ("--request-rate-series 'file.json'").
Result<std::vector<RatePoint>> parse_rate_series(const std::string& json, const std::string& source);

const char* model_selection_name(ModelSelection m);

}  // namespace servebench::config
