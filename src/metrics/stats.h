// Statistics over a sample: avg, min, max, sum, std (population), count and the percentiles
// p1 p5 p10 p25 p50 p75 p90 p95 p99, with AIPerf's definitions (docs/metrics.md):
//   * percentiles on the full sample, numpy's default "linear" method (Hyndman-Fan type 7):
//     virtual index h = q/100 * (n - 1), value = x[floor h] + (h - floor h) * (x[floor h + 1] -
//     x[floor h]);
//   * std is the population standard deviation (ddof = 0);
//   * error-adjusted (adj_*) distributions use numpy's "nearest" method instead (index
//     round-half-to-even(h)) and have no std, because they contain +inf samples.
// Exact: no sketches, no histograms. Selection (nth_element) instead of a full sort keeps this
// O(n) per distribution.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace servebench::metrics {

inline constexpr std::array<double, 9> kPercentiles = {1, 5, 10, 25, 50, 75, 90, 95, 99};
inline constexpr std::array<const char*, 9> kPercentileNames = {"p1",  "p5",  "p10", "p25", "p50",
                                                                "p75", "p90", "p95", "p99"};

enum class PercentileMethod { kLinear, kNearest };

struct Stats {
  int64_t count = 0;
  double avg = 0;
  double min = 0;
  double max = 0;
  double sum = 0;
  double std = 0;
  bool has_std = true;                // false for adj_* (AIPerf writes std = None)
  std::array<double, 9> p{};          // values for kPercentiles

  // Value of a statistic by name ("avg", "min", "max", "sum", "std", "count", "p1".."p99").
  // Returns false when the name is unknown (or std is absent).
  bool get(const char* name, double* out) const;
};

// Computes the statistics of `values`. May reorder `values` (selection). REQUIRES: !values.empty()
// and no NaN. +inf samples are allowed (adj_* distributions): avg/sum/max become +inf.
Stats compute_stats(std::vector<double>& values,
                    PercentileMethod method = PercentileMethod::kLinear);

// compute_stats() of `n` copies of `v` (REQUIRES: n > 0), without building them: the same sum
// and variance loops, every percentile v (metrics/column.h's constant columns).
Stats constant_stats(double v, size_t n, PercentileMethod method = PercentileMethod::kLinear);

// Same, leaving the input untouched (copies it).
Stats compute_stats_copy(const std::vector<double>& values,
                         PercentileMethod method = PercentileMethod::kLinear);

// Puts the order statistics for the ascending, distinct 0-based ranks [first, last) of `values`
// at their sorted positions (recursive selection, O(n log k)); the rest is left partitioned.
void select_order_statistics(std::vector<double>* values, const size_t* first, const size_t* last);
// The same within positions [begin, end) of `values` (the ranks are positions in that range).
void select_order_statistics(std::vector<double>* values, size_t begin, size_t end,
                             const size_t* first, const size_t* last);

// The fractional rank of percentile q (0..100) among n sorted values (numpy's linear method):
// percentile_sorted and compute_stats interpolate between its floor and the next rank.
inline double percentile_rank(size_t n, double q) { return q / 100.0 * static_cast<double>(n - 1); }

// Percentile q (0..100) of an already SORTED sample with numpy's linear method: tests, and small
// sorted samples (report.html's time bands).
double percentile_sorted(const std::vector<double>& sorted, double q);

// True when the statistic name is one of AIPerf's STAT_KEYS or "count".
bool is_stat_name(const char* name);

}  // namespace servebench::metrics
