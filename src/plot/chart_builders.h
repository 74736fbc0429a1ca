// Building blocks shared by the chart sets (charts.cc, client_charts.cc, telemetry_charts.cc):
// time bins, per-bin percentiles and rates, and a chart with its labels.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "plot/chart.h"

namespace servebench::plot::detail {

// Time bin width (s): about one bin per 10 samples, at least 10 and at most kMaxTimeBins bins
// over the run, never under 1 ms.
double time_bin_s(const std::vector<double>& times);

// p50 and p99 of `values` per time bin of `times` (seconds); empty bins are skipped.
std::pair<Series, Series> over_time(const std::vector<double>& times,
                                    const std::vector<double>& values);

// Events per second (sum of `weights`, or counts) per time bin of `times`.
Series rate_over_time(const std::string& name, const std::vector<double>& times,
                      const std::vector<double>* weights, double width);

Chart make(std::string id, std::string title, std::string x, std::string y, ChartKind kind);

}  // namespace servebench::plot::detail
