// Statistics against values numpy gives (np.percentile default "linear" method, method="nearest"
// for adj_*, np.std with ddof=0). Expected values were worked out from numpy's definitions
// (virtual index h = q/100 * (n - 1)) and are spelled out next to each case.
#include "metrics/stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace servebench::metrics {
namespace {

double pct(const Stats& s, const char* name) {
  double v = NAN;
  EXPECT_TRUE(s.get(name, &v)) << name;
  return v;
}

TEST(StatsTest, LinearFourValues) {
  // np.percentile([4, 1, 3, 2], [1, 5, 10, 25, 50, 75, 90, 95, 99])
  //   = [1.03, 1.15, 1.3, 1.75, 2.5, 3.25, 3.7, 3.85, 3.97]
  Stats s = compute_stats_copy({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4);
  EXPECT_DOUBLE_EQ(s.avg, 2.5);
  EXPECT_DOUBLE_EQ(s.sum, 10);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.std, std::sqrt(1.25));  // np.std([1,2,3,4]) = 1.118033988749895
  const double expected[] = {1.03, 1.15, 1.3, 1.75, 2.5, 3.25, 3.7, 3.85, 3.97};
  for (size_t i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(s.p[i], expected[i]) << kPercentileNames[i];
}

TEST(StatsTest, LinearFiveValuesClassic) {
  // np.percentile([15, 20, 35, 40, 50], q) = 15.2, 16, 17, 20, 35, 40, 46, 48, 49.6
  Stats s = compute_stats_copy({50, 15, 40, 20, 35});
  const double expected[] = {15.2, 16, 17, 20, 35, 40, 46, 48, 49.6};
  for (size_t i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(s.p[i], expected[i]) << kPercentileNames[i];
}

TEST(StatsTest, SingleValue) {
  Stats s = compute_stats_copy({7.25});
  EXPECT_EQ(s.count, 1);
  EXPECT_DOUBLE_EQ(s.avg, 7.25);
  EXPECT_DOUBLE_EQ(s.std, 0);
  for (double p : s.p) EXPECT_DOUBLE_EQ(p, 7.25);
}

TEST(StatsTest, Ties) {
  // sorted [1, 5, 5, 5]: p10 h=0.3 → 1 + 0.3*4 = 2.2; p25 h=0.75 → 4; p50.. → 5.
  Stats s = compute_stats_copy({5, 5, 1, 5});
  EXPECT_DOUBLE_EQ(pct(s, "p10"), 2.2);
  EXPECT_DOUBLE_EQ(pct(s, "p25"), 4.0);
  EXPECT_DOUBLE_EQ(pct(s, "p50"), 5.0);
  EXPECT_DOUBLE_EQ(pct(s, "p99"), 5.0);
  // All equal: every statistic is that value, std 0.
  Stats eq = compute_stats_copy({3, 3, 3, 3, 3, 3});
  for (double p : eq.p) EXPECT_DOUBLE_EQ(p, 3);
  EXPECT_DOUBLE_EQ(eq.std, 0);
}

TEST(StatsTest, PopulationStd) {
  // np.std([2, 4, 4, 4, 5, 5, 7, 9]) = 2.0 (ddof=0); the sample std would be 2.138.
  Stats s = compute_stats_copy({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(s.std, 2.0);
  EXPECT_DOUBLE_EQ(s.avg, 5.0);
}

TEST(StatsTest, NearestRoundsHalfToEven) {
  // np.percentile([10, 20, 30], 25, method="nearest"): h = 0.5 → index 0 → 10;
  // q=75: h = 1.5 → index 2 → 30; q=50: h = 1 → 20.
  Stats s = compute_stats_copy({30, 10, 20}, PercentileMethod::kNearest);
  EXPECT_DOUBLE_EQ(pct(s, "p25"), 10);
  EXPECT_DOUBLE_EQ(pct(s, "p50"), 20);
  EXPECT_DOUBLE_EQ(pct(s, "p75"), 30);
  // [1, 2, 3, 4]: p50 h=1.5 → 2 → 3; p25 h=0.75 → 1 → 2; p90 h=2.7 → 3 → 4; p10 h=0.3 → 1.
  Stats f = compute_stats_copy({1, 2, 3, 4}, PercentileMethod::kNearest);
  EXPECT_DOUBLE_EQ(pct(f, "p50"), 3);
  EXPECT_DOUBLE_EQ(pct(f, "p25"), 2);
  EXPECT_DOUBLE_EQ(pct(f, "p90"), 4);
  EXPECT_DOUBLE_EQ(pct(f, "p10"), 1);
}

TEST(StatsTest, AdjustedWithInfinity) {
  // Successes 1..4 plus two failures as +inf (adj_*): sorted [1,2,3,4,inf,inf], nearest.
  const double inf = std::numeric_limits<double>::infinity();
  Stats s = compute_stats_copy({inf, 3, 1, inf, 4, 2}, PercentileMethod::kNearest);
  EXPECT_TRUE(std::isinf(s.avg));
  EXPECT_TRUE(std::isinf(s.max));
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_FALSE(s.has_std);
  double v;
  EXPECT_FALSE(s.get("std", &v));
  EXPECT_DOUBLE_EQ(pct(s, "p50"), 3);   // h = 2.5 → 2 (even) → 3
  EXPECT_TRUE(std::isinf(pct(s, "p90")));  // h = 4.5 → 4 → inf
  EXPECT_DOUBLE_EQ(pct(s, "p25"), 2);   // h = 1.25 → 1 → 2
}

TEST(StatsTest, SelectionMatchesSortedReference) {
  // The selection algorithm must agree with percentile_sorted on a full sort for many sizes,
  // including duplicates.
  for (size_t n = 1; n < 300; n += 7) {
    std::vector<double> v;
    uint64_t x = 88172645463325252ull + n;
    for (size_t i = 0; i < n; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      v.push_back(static_cast<double>(x % 50));
    }
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    Stats s = compute_stats_copy(v);
    for (size_t i = 0; i < 9; ++i) {
      EXPECT_DOUBLE_EQ(s.p[i], percentile_sorted(sorted, kPercentiles[i])) << n << " " << i;
    }
  }
}

// Large samples take the bucketed selection (rank_select.h): every percentile, linear and
// nearest, equals the sorted reference bit for bit, for continuous, skewed, tied, signed,
// infinite, huge-range and nearly constant samples.
TEST(StatsTest, BucketedSelectionMatchesSortedReferenceOnLargeSamples) {
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> skewed(3.5, 1.2);
  std::normal_distribution<double> signed_values(0, 1e3);
  const double inf = std::numeric_limits<double>::infinity();
  using Gen = std::function<double(size_t)>;
  const std::vector<std::pair<const char*, Gen>> kinds = {
      {"lognormal", [&](size_t) { return skewed(rng); }},
      {"few whole values", [&](size_t) { return double(90 + rng() % 21); }},
      {"signed with zeros", [&](size_t i) { return i % 5 == 0 ? (i % 2 ? -0.0 : 0.0) : signed_values(rng); }},
      {"huge range", [&](size_t i) { return i % 3 == 0 ? 1e-300 * double(rng() % 1000) : 1e300 / double(1 + rng() % 1000); }},
      {"one outlier", [&](size_t i) { return i == 7 ? 1e9 : 5.0 + double(rng() % 2) * 1e-12; }},
      {"adjusted with infinities", [&](size_t i) { return i % 10 == 0 ? inf : double(rng() % 100000); }},
      {"nearly sorted", [&](size_t i) { return double(i) * 7.3 + double(rng() % 50); }},
  };
  for (const auto& [name, gen] : kinds) {
    for (size_t n : {4095u, 4096u, 4097u, 50'000u}) {
      std::vector<double> v(n);
      for (size_t i = 0; i < n; ++i) v[i] = gen(i);
      std::vector<double> sorted = v;
      std::sort(sorted.begin(), sorted.end());
      for (auto method : {PercentileMethod::kLinear, PercentileMethod::kNearest}) {
        const Stats s = compute_stats_copy(v, method);
        for (size_t i = 0; i < 9; ++i) {
          const double h = kPercentiles[i] / 100.0 * double(n - 1);
          const double expected = method == PercentileMethod::kLinear
                                      ? percentile_sorted(sorted, kPercentiles[i])
                                      : sorted[static_cast<size_t>(std::nearbyint(h))];
          EXPECT_EQ(std::bit_cast<uint64_t>(s.p[i] + 0.0), std::bit_cast<uint64_t>(expected + 0.0))
              << name << " n=" << n << " p" << kPercentiles[i] << ": " << s.p[i] << " vs " << expected;
        }
      }
    }
  }
}

TEST(StatsTest, StatNames) {
  EXPECT_TRUE(is_stat_name("p99"));
  EXPECT_TRUE(is_stat_name("avg"));
  EXPECT_TRUE(is_stat_name("count"));
  EXPECT_FALSE(is_stat_name("p98"));
  EXPECT_FALSE(is_stat_name("mean"));
}

}  // namespace
}  // namespace servebench::metrics
