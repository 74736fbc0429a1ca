// Time series for the report's over-time panels, binned over the run from its request columns:
// sends (actual and intended), completions, output-token throughput, concurrency, TTFT and
// latency percentile bands, schedule lag and errors by kind. Exact over every request; only the
// bin width limits resolution (about kTargetBins bins whatever the run's length).
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "report_html/request_columns.h"

namespace servebench::report_html {

inline constexpr int kTargetBins = 200;

struct Band {  // per bin, NaN where the bin has no sample
  std::vector<double> p10, p50, p90, p99, max;
};

struct TimeSeries {
  int64_t origin_ns = 0;  // wall ns of t = 0 (the earliest request start)
  double bin_s = 0;       // bin width in seconds
  std::vector<double> t_s;              // bin starts, seconds from origin
  std::vector<double> sends_per_s;      // request starts per second
  std::vector<double> intended_per_s;   // intended sends per second (empty without intents)
  std::vector<double> completions_per_s;  // successful response ends per second
  std::vector<double> output_tokens_per_s;
  std::vector<double> concurrency;      // time-averaged requests in flight
  Band ttft_ms, latency_ms, lag_ms;     // by request start (lag: by intended send)
  std::map<std::string, std::vector<int64_t>> errors;  // kind name -> failures per bin (by end)
};

// A bin width (seconds) from a short list of round values giving about kTargetBins bins over
// `duration_s`, and at least the token bucket (10 ms).
double pick_bin_seconds(double duration_s);

TimeSeries make_time_series(const RequestColumns& cols);

}  // namespace servebench::report_html
