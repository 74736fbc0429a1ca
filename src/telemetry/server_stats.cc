#include "telemetry/server_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace servebench::telemetry {
namespace {

using prom::MetricType;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

double percentile_sorted(const std::vector<double>& sorted, double pct) {
  if (sorted.size() == 1) return sorted[0];
  double pos = (static_cast<double>(sorted.size()) - 1) * pct / 100.0;
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

double le_value(const std::string& text) {
  if (text == "+Inf" || text == "Inf" || text == "+inf" || text == "inf") {
    return std::numeric_limits<double>::infinity();
  }
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() ? std::numeric_limits<double>::quiet_NaN() : v;
}

struct Bucket {
  double le;
  std::string text;
  const Series* series;
};

struct HistogramGroup {
  int endpoint = 0;
  std::string family;
  Labels labels;  // le removed
  std::vector<Bucket> buckets;
  const Series* count = nullptr;
  const Series* sum = nullptr;
};

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

std::optional<HistogramStats> histogram_stats(const HistogramGroup& g, int64_t base_ns, int64_t end_ns,
                                              double duration_s) {
  if (!g.count) return std::nullopt;
  auto count = counter_increase(g.count->t_ns, g.count->v, base_ns, end_ns);
  if (!count) return std::nullopt;
  HistogramStats h;
  h.count = *count;
  if (g.sum) h.sum = counter_increase(g.sum->t_ns, g.sum->v, base_ns, end_ns).value_or(0);
  h.avg = h.count > 0 ? h.sum / h.count : 0;
  h.count_rate = duration_s > 0 ? h.count / duration_s : 0;
  h.sum_rate = duration_s > 0 ? h.sum / duration_s : 0;
  std::vector<double> les, cum;
  double running = 0;
  for (const auto& b : g.buckets) {
    double d = counter_increase(b.series->t_ns, b.series->v, base_ns, end_ns).value_or(0);
    running = std::max(running, d);  // cumulative counts never decrease
    les.push_back(b.le);
    cum.push_back(running);
    h.buckets.emplace_back(b.text, running);
  }
  if (!cum.empty() && cum.back() > 0 && std::isfinite(les.front())) {
    h.has_estimate = true;
    for (size_t i = 0; i < kServerPercentiles.size(); ++i)
      h.p_estimate[i] = estimate_quantile(kServerPercentiles[i] / 100.0, les, cum);
  }
  return h;
}

std::vector<HistogramGroup> histogram_groups(const SeriesStore& store) {
  std::map<std::tuple<int, std::string, std::string>, HistogramGroup> groups;
  for (const Series& s : store.series()) {
    if (s.type != MetricType::kHistogram) continue;
    Labels labels;
    std::string le;
    for (const auto& kv : s.labels) {
      if (kv.first == "le") {
        le = kv.second;
      } else {
        labels.push_back(kv);
      }
    }
    HistogramGroup& g = groups[{s.endpoint, s.family, labels_text(labels)}];
    g.endpoint = s.endpoint;
    g.family = s.family;
    g.labels = labels;
    if (s.name == s.family + "_bucket") {
      double v = le_value(le);
      if (!std::isnan(v)) g.buckets.push_back({v, le, &s});
    } else if (s.name == s.family + "_count") {
      g.count = &s;
    } else if (s.name == s.family + "_sum") {
      g.sum = &s;
    }
  }
  std::vector<HistogramGroup> out;
  for (auto& [k, g] : groups) {
    std::sort(g.buckets.begin(), g.buckets.end(),
              [](const Bucket& a, const Bucket& b) { return a.le < b.le; });
    out.push_back(std::move(g));
  }
  return out;
}

// The export key of a scalar series, or "" when the series is not reported (_created).
std::string scalar_key(const Series& s) {
  if (ends_with(s.name, "_created") &&
      (s.type == MetricType::kCounter || ends_with(s.family, "_created"))) {
    return "";
  }
  if (s.type == MetricType::kCounter && ends_with(s.name, "_total")) {
    return s.name.substr(0, s.name.size() - 6);
  }
  return s.name;
}

std::vector<std::pair<int64_t, int64_t>> slices_of(const Window& w, int64_t slice_ns) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (slice_ns <= 0 || w.end_ns <= w.start_ns) return out;
  for (int64_t t = w.start_ns; t < w.end_ns; t += slice_ns) out.emplace_back(t, std::min(t + slice_ns, w.end_ns));
  return out;
}

// A slice without a scrape inside holds the last value scraped before it.
std::optional<GaugeStats> carried_gauge(const Series& s, int64_t before_ns) {
  std::optional<GaugeStats> g;
  for (size_t i = 0; i < s.t_ns.size() && s.t_ns[i] <= before_ns; ++i) {
    if (std::isnan(s.v[i])) continue;
    g = GaugeStats{};
    g->samples = 0;
    g->avg = g->min = g->max = s.v[i];
    g->p.fill(s.v[i]);
  }
  return g;
}

void add_scalar(const Series& s, const std::string& key, const Window& w, int64_t slice_ns,
                ServerReport* out) {
  SeriesReport r;
  r.endpoint = s.endpoint;
  r.metric = key;
  r.type = s.type == MetricType::kCounter ? MetricType::kCounter
           : (s.type == MetricType::kUntyped || s.type == MetricType::kUnknown) ? MetricType::kUnknown
                                                                                 : MetricType::kGauge;
  r.labels = s.labels;
  const double duration_s = seconds(w.end_ns - w.start_ns);
  for (auto [a, b] : slices_of(w, slice_ns)) {
    SliceStats sl{a, b, b - a == slice_ns, std::nullopt, std::nullopt, std::nullopt};
    if (r.type == MetricType::kCounter) {
      double inc = counter_increase(s.t_ns, s.v, a, b).value_or(0);
      sl.counter = CounterStats{};
      sl.counter->total = inc;
      sl.counter->rate = inc / seconds(b - a);
    } else {
      sl.gauge = gauge_stats(s.t_ns, s.v, a, b);
      if (!sl.gauge) sl.gauge = carried_gauge(s, a);
    }
    r.slices.push_back(sl);
  }
  if (r.type == MetricType::kCounter) {
    auto inc = counter_increase(s.t_ns, s.v, w.start_ns, w.final_ns);
    if (!inc) return;
    r.counter = CounterStats{};
    r.counter->total = *inc;
    r.counter->rate = duration_s > 0 ? *inc / duration_s : 0;
    add_point_rates(s.t_ns, s.v, w.start_ns, w.final_ns, &*r.counter);
  } else {
    r.gauge = gauge_stats(s.t_ns, s.v, w.start_ns, w.end_ns);
    if (!r.gauge) r.gauge = carried_gauge(s, w.end_ns);  // a run shorter than the interval
    if (!r.gauge) return;
  }
  out->series.push_back(std::move(r));
}

}  // namespace

std::optional<GaugeStats> gauge_stats(const std::vector<int64_t>& t, const std::vector<double>& v,
                                      int64_t start_ns, int64_t end_ns) {
  std::vector<double> xs;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] >= start_ns && t[i] <= end_ns && !std::isnan(v[i])) xs.push_back(v[i]);
  }
  if (xs.empty()) return std::nullopt;
  std::sort(xs.begin(), xs.end());
  GaugeStats g;
  g.samples = static_cast<int64_t>(xs.size());
  g.min = xs.front();
  g.max = xs.back();
  double sum = 0;
  for (double x : xs) sum += x;
  g.avg = sum / static_cast<double>(xs.size());
  double ss = 0;
  for (double x : xs) ss += (x - g.avg) * (x - g.avg);
  g.std = xs.size() > 1 ? std::sqrt(ss / static_cast<double>(xs.size() - 1)) : 0;
  for (size_t i = 0; i < kServerPercentiles.size(); ++i) g.p[i] = percentile_sorted(xs, kServerPercentiles[i]);
  return g;
}

std::optional<double> counter_increase(const std::vector<int64_t>& t, const std::vector<double>& v,
                                       int64_t base_ns, int64_t end_ns) {
  // Baseline: the last sample at or before base_ns, else the first sample.
  size_t first = 0;
  while (first + 1 < t.size() && t[first + 1] <= base_ns) ++first;
  if (t.empty() || t[first] > end_ns) return std::nullopt;
  double total = 0;
  for (size_t i = first + 1; i < t.size() && t[i] <= end_ns; ++i) {
    if (std::isnan(v[i]) || std::isnan(v[i - 1])) continue;
    total += v[i] >= v[i - 1] ? v[i] - v[i - 1] : v[i];
  }
  return total;
}

void add_point_rates(const std::vector<int64_t>& t, const std::vector<double>& v, int64_t base_ns,
                     int64_t end_ns, CounterStats* out) {
  size_t first = 0;
  while (first + 1 < t.size() && t[first + 1] <= base_ns) ++first;
  std::vector<double> rates;
  double inc_sum = 0, span_s = 0;
  for (size_t i = first + 1; i < t.size() && t[i] <= end_ns; ++i) {
    if (t[i] <= t[i - 1] || std::isnan(v[i]) || std::isnan(v[i - 1])) continue;
    const double inc = v[i] >= v[i - 1] ? v[i] - v[i - 1] : v[i];
    const double dt = seconds(t[i] - t[i - 1]);
    rates.push_back(inc / dt);
    inc_sum += inc;
    span_s += dt;
  }
  if (rates.empty()) return;
  out->has_rates = true;
  out->rate_avg = inc_sum / span_s;
  out->rate_min = *std::min_element(rates.begin(), rates.end());
  out->rate_max = *std::max_element(rates.begin(), rates.end());
  double mean = 0;
  for (double r : rates) mean += r;
  mean /= static_cast<double>(rates.size());
  double ss = 0;
  for (double r : rates) ss += (r - mean) * (r - mean);
  out->rate_std = rates.size() > 1 ? std::sqrt(ss / static_cast<double>(rates.size() - 1)) : 0;
}

double estimate_quantile(double q, const std::vector<double>& les, const std::vector<double>& cum) {
  if (cum.empty() || !(cum.back() > 0)) return std::numeric_limits<double>::quiet_NaN();
  const double rank = q * cum.back();
  size_t i = 0;
  while (i + 1 < cum.size() && cum[i] < rank) ++i;
  if (std::isinf(les[i])) {
    // The +Inf bucket: the highest finite bound is all that is known.
    return i > 0 ? les[i - 1] : std::numeric_limits<double>::quiet_NaN();
  }
  const double below = i > 0 ? cum[i - 1] : 0;
  const double lower = i > 0 ? les[i - 1] : std::min(0.0, les[0]);
  const double in_bucket = cum[i] - below;
  if (in_bucket <= 0) return les[i];
  return lower + (les[i] - lower) * ((rank - below) / in_bucket);
}

std::optional<HistogramStats> merge_histograms(const ServerReport& report, const std::string& metric) {
  std::optional<HistogramStats> out;
  std::map<double, double> buckets;
  for (const auto& s : report.series) {
    if (s.metric != metric || !s.histogram) continue;
    if (!out) out = HistogramStats{};
    out->count += s.histogram->count;
    out->sum += s.histogram->sum;
    for (const auto& [le, c] : s.histogram->buckets) buckets[le_value(le)] += c;
  }
  if (!out || out->count <= 0) return std::nullopt;
  out->avg = out->sum / out->count;
  std::vector<double> les, cum;
  for (const auto& [le, c] : buckets) {
    les.push_back(le);
    cum.push_back(c);
    out->buckets.emplace_back(std::isinf(le) ? "+Inf" : fmt::format("{}", le), c);
  }
  if (!les.empty() && std::isfinite(les.front()) && cum.back() > 0) {
    out->has_estimate = true;
    for (size_t i = 0; i < kServerPercentiles.size(); ++i)
      out->p_estimate[i] = estimate_quantile(kServerPercentiles[i] / 100.0, les, cum);
  }
  return out;
}

ServerReport build_report(const SeriesStore& store, const Window& w, int64_t slice_ns) {
  ServerReport out;
  out.endpoints = store.endpoints();
  out.families = store.families();
  out.unsupported.assign(store.unsupported().begin(), store.unsupported().end());
  out.window = w;
  for (const Series& s : store.series()) {
    if (s.type == MetricType::kHistogram) continue;
    std::string key = scalar_key(s);
    if (!key.empty()) add_scalar(s, key, w, slice_ns, &out);
  }
  const double duration_s = seconds(w.end_ns - w.start_ns);
  for (const HistogramGroup& g : histogram_groups(store)) {
    SeriesReport r;
    r.endpoint = g.endpoint;
    r.metric = g.family;
    r.type = MetricType::kHistogram;
    r.labels = g.labels;
    r.histogram = histogram_stats(g, w.start_ns, w.final_ns, duration_s);
    if (!r.histogram) continue;
    for (auto [a, b] : slices_of(w, slice_ns)) {
      SliceStats sl{a, b, b - a == slice_ns, std::nullopt, std::nullopt, std::nullopt};
      sl.histogram = histogram_stats(g, a, b, seconds(b - a));
      r.slices.push_back(sl);
    }
    out.series.push_back(std::move(r));
  }
  std::sort(out.series.begin(), out.series.end(), [](const SeriesReport& a, const SeriesReport& b) {
    return std::tie(a.metric, a.endpoint) < std::tie(b.metric, b.endpoint) ||
           (std::tie(a.metric, a.endpoint) == std::tie(b.metric, b.endpoint) &&
            labels_text(a.labels) < labels_text(b.labels));
  });
  return out;
}

}  // namespace servebench::telemetry
