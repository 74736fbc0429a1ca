// The chart set of `servebench plot`, built from RunData (run_data.h).
//
// One run: histogram and CDF of TTFT, ITL, request latency, ISL and OSL; TTFT and latency over
// time (p50 and p99 per time bin); request rate and output token throughput over time;
// requests in flight, schedule lag and errors by kind over time; GPU and server-metrics series.
// Several runs: CDF overlays and side-by-side histograms of the same five metrics (common bins),
// TTFT p50 over time per run, and the latency-vs-throughput Pareto chart (one point per run,
// error bars from multi-run intervals when present, the frontier drawn).
//
// Sizes are bounded whatever the run's length: at most kMaxCdfPoints per CDF series,
// kHistogramBins bins, kMaxTimeBins time bins.
//
// Thread safety: pure functions.
#pragma once

#include <vector>

#include "plot/chart.h"
#include "plot/run_data.h"

namespace servebench::plot {

inline constexpr size_t kMaxCdfPoints = 500;
inline constexpr int kHistogramBins = 40;
inline constexpr int kMaxTimeBins = 120;

std::vector<Chart> single_run_charts(const RunData& run);

// Part of single_run_charts: in-flight requests, schedule lag and errors by kind over time
// (client_charts.cc); GPU and server-metrics series from the folder's telemetry files when
// present (telemetry_charts.cc).
std::vector<Chart> client_charts(const RunData& run);
std::vector<Chart> telemetry_charts(const RunData& run);
std::vector<Chart> multi_run_charts(const std::vector<RunData>& runs);

// CDF points of `values` (NaN dropped): every sorted value when there are at most max_points,
// else max_points evenly spaced quantiles. y in percent.
std::vector<Point> cdf_points(std::vector<double> values, size_t max_points);

}  // namespace servebench::plot
