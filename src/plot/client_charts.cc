// Client-side charts of one run: requests in flight, schedule lag and errors by kind over time.
#include <algorithm>
#include <cmath>
#include <map>

#include "plot/chart_builders.h"
#include "plot/charts.h"

namespace servebench::plot {
namespace {

using detail::make;

// Mean number of requests in flight per time bin: the time every request spent inside the bin,
// summed, divided by the bin's width.
Series in_flight(const RunData& run, double width) {
  double t_max = 0;
  for (double t : run.any_end_s) t_max = std::max(t_max, t);
  std::vector<double> busy(static_cast<size_t>(t_max / width) + 1, 0);
  for (size_t i = 0; i < run.any_start_s.size(); ++i) {
    const double a = run.any_start_s[i], b = run.any_end_s[i];
    for (auto bin = static_cast<size_t>(a / width); bin < busy.size(); ++bin) {
      const double lo = static_cast<double>(bin) * width, hi = lo + width;
      if (lo >= b) break;
      busy[bin] += std::min(b, hi) - std::max(a, lo);
    }
  }
  Series s{"in flight", {}, {}, {}, {}};
  for (size_t bin = 0; bin < busy.size(); ++bin)
    s.points.push_back({(static_cast<double>(bin) + 0.5) * width, busy[bin] / width});
  return s;
}

}  // namespace

std::vector<Chart> client_charts(const RunData& run) {
  std::vector<Chart> out;
  if (run.any_start_s.empty()) return out;
  const double width = detail::time_bin_s(run.any_end_s);
  Chart c = make("concurrency_over_time", "Requests in flight over time", "time since start (s)",
                 "requests in flight", ChartKind::kLines);
  c.y_from_zero = true;
  c.series.push_back(in_flight(run, width));
  out.push_back(std::move(c));
  if (std::any_of(run.lag_ms.begin(), run.lag_ms.end(), [](double v) { return std::isfinite(v); })) {
    Chart lag = make("schedule_lag_over_time", "Schedule lag over time (actual − intended send)",
                     "time since start (s)", "ms", ChartKind::kLines);
    auto [p50, p99] = detail::over_time(run.any_start_s, run.lag_ms);
    lag.series = {p50, p99};
    out.push_back(std::move(lag));
  }
  if (!run.error_s.empty()) {
    std::map<std::string, std::vector<double>> by_kind;
    for (size_t i = 0; i < run.error_s.size(); ++i) by_kind[run.error_kind[i]].push_back(run.error_s[i]);
    Chart e = make("errors_over_time", "Errors over time by kind", "time since start (s)",
                   "errors/s", ChartKind::kLines);
    for (const auto& [kind, times] : by_kind)
      e.series.push_back(detail::rate_over_time(kind, times, nullptr, width));
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace servebench::plot
