#include "plot/charts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "plot/chart_builders.h"

namespace servebench::plot {
namespace {

struct MetricDef {
  const char* id;
  const char* title;
  const char* unit;
  std::vector<double> RunData::*values;
};

const MetricDef kMetrics[] = {
    {"ttft", "Time to first token", "ms", &RunData::ttft_ms},
    {"itl", "Inter-token latency", "ms", &RunData::itl_ms},
    {"request_latency", "Request latency", "ms", &RunData::latency_ms},
    {"isl", "Input sequence length", "tokens", &RunData::isl},
    {"osl", "Output sequence length", "tokens", &RunData::osl},
};

std::vector<double> finite(const std::vector<double>& v) {
  std::vector<double> out;
  out.reserve(v.size());
  for (double x : v)
    if (std::isfinite(x)) out.push_back(x);
  return out;
}

// Common bins over every run's values: [lo, lo + width * bins).
struct Bins {
  double lo = 0, width = 1;
};

Bins bins_for(const std::vector<std::vector<double>>& sets) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : sets)
    for (double v : s) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!std::isfinite(lo)) return {};
  double width = (hi - lo) / kHistogramBins;
  if (width <= 0) width = std::max(1.0, std::fabs(lo) * 0.01);
  return {lo, width};
}

Series histogram(const std::string& name, const std::vector<double>& values, Bins b) {
  std::vector<double> counts(kHistogramBins, 0);
  for (double v : values) {
    auto i = static_cast<int64_t>(std::floor((v - b.lo) / b.width));
    counts[static_cast<size_t>(std::clamp<int64_t>(i, 0, kHistogramBins - 1))] += 1;
  }
  Series s{name, {}, {}, {}, {}};
  for (int i = 0; i < kHistogramBins; ++i)
    s.points.push_back({b.lo + b.width * i, counts[static_cast<size_t>(i)]});
  return s;
}

double quantile_sorted(const std::vector<double>& v, double q) {
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto i = static_cast<size_t>(std::floor(pos));
  const size_t j = std::min(i + 1, v.size() - 1);
  return v[i] + (v[j] - v[i]) * (pos - static_cast<double>(i));
}

}  // namespace

namespace detail {

// Time bin width (s): about one bin per 10 samples, at least 10 and at most kMaxTimeBins bins
// over the run, never under 1 ms.
double time_bin_s(const std::vector<double>& times) {
  double t_max = 0;
  for (double t : times) t_max = std::max(t_max, t);
  const auto bins = std::clamp<size_t>(times.size() / 10, 10, kMaxTimeBins);
  return std::max(1e-3, t_max / static_cast<double>(bins));
}

// p50 and p99 of `values` per time bin of `times` (seconds); empty bins are skipped.
std::pair<Series, Series> over_time(const std::vector<double>& times,
                                    const std::vector<double>& values) {
  const double width = time_bin_s(times);
  double t_max = 0;
  for (double t : times) t_max = std::max(t_max, t);
  const auto n = static_cast<size_t>(t_max / width) + 1;
  std::vector<std::vector<double>> bins(n);
  for (size_t i = 0; i < times.size() && i < values.size(); ++i)
    if (std::isfinite(values[i])) bins[static_cast<size_t>(times[i] / width)].push_back(values[i]);
  Series p50{"p50", {}, {}, {}, {}}, p99{"p99", {}, {}, {}, {}};
  for (size_t b = 0; b < n; ++b) {
    if (bins[b].empty()) continue;
    std::sort(bins[b].begin(), bins[b].end());
    const double mid = (static_cast<double>(b) + 0.5) * width;
    p50.points.push_back({mid, quantile_sorted(bins[b], 0.5)});
    p99.points.push_back({mid, quantile_sorted(bins[b], 0.99)});
  }
  return {p50, p99};
}

// Events per second (sum of `weights`, or counts) per time bin of `times`.
Series rate_over_time(const std::string& name, const std::vector<double>& times,
                      const std::vector<double>* weights, double width) {
  double t_max = 0;
  for (double t : times) t_max = std::max(t_max, t);
  std::vector<double> sums(static_cast<size_t>(t_max / width) + 1, 0);
  for (size_t i = 0; i < times.size(); ++i) {
    const double w = weights ? (*weights)[i] : 1.0;
    if (std::isfinite(w)) sums[static_cast<size_t>(times[i] / width)] += w;
  }
  Series s{name, {}, {}, {}, {}};
  for (size_t b = 0; b < sums.size(); ++b)
    s.points.push_back({(static_cast<double>(b) + 0.5) * width, sums[b] / width});
  return s;
}

Chart make(std::string id, std::string title, std::string x, std::string y, ChartKind kind) {
  Chart c;
  c.id = std::move(id);
  c.title = std::move(title);
  c.x_label = std::move(x);
  c.y_label = std::move(y);
  c.kind = kind;
  c.y_from_zero = c.y_label.find("share of") == 0 || c.y_label.find("/s") != std::string::npos;
  return c;
}

}  // namespace detail

namespace {

using detail::make;
using detail::over_time;
using detail::rate_over_time;
using detail::time_bin_s;

std::string axis(const MetricDef& m) { return std::string(m.title) + " (" + m.unit + ")"; }

}  // namespace

std::vector<Point> cdf_points(std::vector<double> values, size_t max_points) {
  values = finite(values);
  std::sort(values.begin(), values.end());
  std::vector<Point> out;
  const size_t n = values.size();
  if (n == 0) return out;
  if (n <= max_points) {
    for (size_t i = 0; i < n; ++i)
      out.push_back({values[i], 100.0 * static_cast<double>(i + 1) / static_cast<double>(n)});
    return out;
  }
  for (size_t k = 0; k < max_points; ++k) {
    const double q = static_cast<double>(k) / static_cast<double>(max_points - 1);
    out.push_back({quantile_sorted(values, q), 100.0 * q});
  }
  return out;
}

std::vector<Chart> single_run_charts(const RunData& run) {
  std::vector<Chart> out;
  for (const auto& m : kMetrics) {
    const std::vector<double> v = finite(run.*m.values);
    if (v.empty()) continue;
    Chart h = make(std::string(m.id) + "_histogram", std::string(m.title) + " histogram", axis(m),
                   "requests", ChartKind::kBars);
    const Bins b = bins_for({v});
    h.bar_width = b.width;
    h.series.push_back(histogram(run.name, v, b));
    out.push_back(std::move(h));
    Chart c = make(std::string(m.id) + "_cdf", std::string(m.title) + " CDF", axis(m),
                   "share of requests (%)", ChartKind::kLines);
    c.series.push_back({run.name, cdf_points(v, kMaxCdfPoints), {}, {}, {}});
    out.push_back(std::move(c));
  }
  if (run.start_s.empty()) return out;
  for (const auto& [id, title, values] :
       {std::tuple{"ttft_over_time", "TTFT over time", &run.ttft_ms},
        std::tuple{"request_latency_over_time", "Request latency over time", &run.latency_ms}}) {
    if (finite(*values).empty()) continue;
    Chart c = make(id, title, "time since start (s)", "ms", ChartKind::kLines);
    auto [p50, p99] = over_time(run.start_s, *values);
    c.series = {p50, p99};
    out.push_back(std::move(c));
  }
  Chart rate = make("request_rate_over_time", "Request rate over time", "time since start (s)",
                    "requests/s", ChartKind::kLines);
  // One bin width for every rate chart, from the completion times (the later of the two).
  const double width = time_bin_s(run.end_s);
  rate.series.push_back(rate_over_time("completed", run.end_s, nullptr, width));
  rate.series.push_back(rate_over_time("sent", run.start_s, nullptr, width));
  out.push_back(std::move(rate));
  if (!finite(run.osl).empty()) {
    Chart tput = make("token_throughput_over_time", "Output token throughput over time",
                      "time since start (s)", "tokens/s", ChartKind::kLines);
    tput.series.push_back(rate_over_time(run.name, run.end_s, &run.osl, width));
    out.push_back(std::move(tput));
  }
  for (auto* extra : {&client_charts, &telemetry_charts}) {
    for (Chart& c : (*extra)(run)) out.push_back(std::move(c));
  }
  return out;
}

std::vector<Chart> multi_run_charts(const std::vector<RunData>& runs) {
  std::vector<Chart> out;
  for (const auto& m : kMetrics) {
    std::vector<std::vector<double>> sets;
    for (const auto& r : runs) sets.push_back(finite(r.*m.values));
    if (std::all_of(sets.begin(), sets.end(), [](const auto& s) { return s.empty(); })) continue;
    Chart c = make(std::string(m.id) + "_cdf_overlay", std::string(m.title) + " CDF by run",
                   axis(m), "share of requests (%)", ChartKind::kLines);
    Chart h = make(std::string(m.id) + "_histogram_by_run", std::string(m.title) + " by run",
                   axis(m), "requests", ChartKind::kBars);
    const Bins b = bins_for(sets);
    h.bar_width = b.width;
    for (size_t i = 0; i < runs.size(); ++i) {
      c.series.push_back({runs[i].name, cdf_points(sets[i], kMaxCdfPoints), {}, {}, {}});
      h.series.push_back(histogram(runs[i].name, sets[i], b));
    }
    out.push_back(std::move(c));
    out.push_back(std::move(h));
  }
  Chart t = make("ttft_over_time_by_run", "TTFT p50 over time by run", "time since start (s)", "ms",
                 ChartKind::kLines);
  for (const auto& r : runs) {
    Series p50 = over_time(r.start_s, r.ttft_ms).first;
    p50.name = r.name;
    t.series.push_back(std::move(p50));
  }
  out.push_back(std::move(t));
  Chart p =
      make("pareto_latency_throughput", "Latency vs throughput", "request throughput (requests/s)",
           "request latency p50 (ms)", ChartKind::kScatter);
  p.frontier = true;
  Series s{"runs", {}, {}, {}, {}};
  for (const auto& r : runs) {
    if (std::isnan(r.request_throughput.value) || std::isnan(r.latency_p50_ms.value)) continue;
    s.points.push_back({r.request_throughput.value, r.latency_p50_ms.value});
    s.labels.push_back(r.name);
    // Intervals stay aligned with points: a run without one gets a zero-length (undrawn) bar.
    const auto& l = r.latency_p50_ms;
    const auto& x = r.request_throughput;
    s.y_interval.push_back(l.has_interval() ? Point{l.ci_low, l.ci_high} : Point{l.value, l.value});
    s.x_interval.push_back(x.has_interval() ? Point{x.ci_low, x.ci_high} : Point{x.value, x.value});
  }
  p.series.push_back(std::move(s));
  out.push_back(std::move(p));
  return out;
}

}  // namespace servebench::plot
