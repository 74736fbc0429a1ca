// RunData: what the plots need from one run's artifact folder, read from the files alone:
// per-request values from profile_export.jsonl (export/records_reader.h; one record alive at a
// time, only numbers kept) and headline figures from profile_export_aiperf.json. When the
// folder holds a multi-run aggregate (DIR/aggregate/profile_export_aiperf_aggregate.json), its
// confidence interval for the Pareto chart's metrics is read too.
//
// Thread safety: pure functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::plot {

// A headline figure and, when a multi-run aggregate gave one, its confidence interval.
struct Figure {
  double value = NAN;
  double ci_low = NAN, ci_high = NAN;
  bool has_interval() const { return !std::isnan(ci_low) && !std::isnan(ci_high); }
};

struct RunData {
  std::string dir;
  std::string name;  // the folder's name, for legends
  // One entry per successful profiling request (NaN where a metric does not apply), in file
  // order; times are seconds since the run's first request start.
  std::vector<double> start_s, end_s;
  std::vector<double> ttft_ms, itl_ms, latency_ms, isl, osl;
  int64_t failed = 0;  // failed profiling requests (not in the vectors above)
  // Every started profiling request, failed ones included: its span (for the concurrency
  // chart) and its schedule lag (actual − intended start, ms; NaN without an intended time).
  std::vector<double> any_start_s, any_end_s, lag_ms;
  // Failed profiling requests: when they ended (s) and their error kind.
  std::vector<double> error_s;
  std::vector<std::string> error_kind;
  int64_t origin_ns = 0;  // wall ns of t = 0 (the first profiling request's start)
  // From profile_export_aiperf.json.
  Figure request_throughput;       // requests/s
  Figure output_token_throughput;  // tokens/s
  Figure latency_p50_ms, ttft_p50_ms;
};

// Reads DIR. Errors name the file and say what is expected (kNotFound / kParse → exit 2).
Result<RunData> load_run(const std::string& dir);

}  // namespace servebench::plot
