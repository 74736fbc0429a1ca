// Statistics of server-metric series over the profiling window (pure functions):
//  - gauges (and untyped/unknown scalars): avg, min, max, std (ddof = 1), p1..p99 of the samples
//    scraped inside [start, end] (none inside, as in a run shorter than the interval: the last
//    value scraped before end, with samples = 0);
//  - counters: total = the increase from the last scrape at or before `start` (the baseline) to
//    the last scrape at or before `final` (reset-aware: a drop means the counter restarted from 0,
//    so the new value is the increase), rate = total / (end - start);
//  - histograms: the same deltas for every bucket, _count and _sum; avg = sum / count (exact);
//    p1..p99 estimated from the bucket deltas by linear interpolation inside the bucket that
//    holds the rank (Prometheus' histogram_quantile rule; the +Inf bucket answers the highest
//    finite bound).
// Time slices cut [start, end] into `slice_ns` pieces and apply the same rules to each (a gauge
// slice without a scrape inside holds the last value scraped before it).
//
// Thread safety: pure; safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/server_series.h"

namespace servebench::telemetry {

inline constexpr std::array<int, 9> kServerPercentiles = {1, 5, 10, 25, 50, 75, 90, 95, 99};

struct Window {
  int64_t start_ns = 0;  // profiling start (t0)
  int64_t end_ns = 0;    // profiling end
  int64_t final_ns = INT64_MAX;  // counters and histograms end at the last scrape at or before it
};

struct GaugeStats {
  int64_t samples = 0;
  double avg = 0, min = 0, max = 0, std = 0;
  std::array<double, 9> p{};
};

struct CounterStats {
  double total = 0;
  double rate = 0;
  // Point-to-point rates between consecutive scrapes from the baseline to the final scrape:
  // rate_avg is time-weighted (the increase over the scrapes' span), min/max/std (ddof = 1) are
  // over the intervals. Absent (has_rates false) with fewer than two scrapes.
  bool has_rates = false;
  double rate_avg = 0, rate_min = 0, rate_max = 0, rate_std = 0;
};

// The point-to-point rate statistics above for the samples from base_ns to end_ns.
void add_point_rates(const std::vector<int64_t>& t, const std::vector<double>& v, int64_t base_ns,
                     int64_t end_ns, CounterStats* out);

struct HistogramStats {
  double count = 0, sum = 0, avg = 0, count_rate = 0, sum_rate = 0;
  std::array<double, 9> p_estimate{};
  bool has_estimate = false;  // false when count == 0 or no finite bucket
  std::vector<std::pair<std::string, double>> buckets;  // le text -> delta of the cumulative count
};

struct SliceStats {
  int64_t start_ns = 0, end_ns = 0;
  bool complete = true;
  std::optional<GaugeStats> gauge;
  std::optional<CounterStats> counter;
  std::optional<HistogramStats> histogram;
};

// One reported series: a gauge/counter sample series, or a histogram's label set (le removed).
struct SeriesReport {
  int endpoint = 0;
  std::string metric;  // the export's key: counters without "_total", histograms' family
  prom::MetricType type = prom::MetricType::kGauge;
  Labels labels;
  std::optional<GaugeStats> gauge;
  std::optional<CounterStats> counter;
  std::optional<HistogramStats> histogram;
  std::vector<SliceStats> slices;
};

struct ServerReport {
  std::vector<std::string> endpoints;
  std::vector<SeriesReport> series;  // sorted by metric, endpoint, labels
  std::map<std::string, FamilyInfo> families;
  std::vector<std::string> unsupported;  // summary families
  Window window;
};

// Gauge statistics of the samples with start <= t <= end; nullopt when none.
std::optional<GaugeStats> gauge_stats(const std::vector<int64_t>& t, const std::vector<double>& v,
                                      int64_t start_ns, int64_t end_ns);

// Reset-aware increase from the baseline (last sample at or before base_ns, else the first
// sample) to the last sample at or before end_ns; nullopt when there is no sample by end_ns.
std::optional<double> counter_increase(const std::vector<int64_t>& t, const std::vector<double>& v,
                                       int64_t base_ns, int64_t end_ns);

// Quantile q (0..1) from cumulative bucket counts (les ascending, the last may be +Inf).
double estimate_quantile(double q, const std::vector<double>& les, const std::vector<double>& cum);

// Every series of histogram `metric` merged (endpoints and label sets): counts, sums and buckets
// add; avg and the estimates recomputed. nullopt when absent or empty.
std::optional<HistogramStats> merge_histograms(const ServerReport& report, const std::string& metric);

// Everything above for every series of `store`. slice_ns = 0: no slices.
ServerReport build_report(const SeriesStore& store, const Window& window, int64_t slice_ns);

}  // namespace servebench::telemetry
