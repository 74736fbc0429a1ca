// LogHistogram and SampleSeries: the stated relative-error bound against exact statistics, exact
// merging, and the exact-to-histogram switch at the bound.
#include "metrics/log_histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "metrics/sample_series.h"
#include "metrics/stats.h"

namespace servebench::metrics {
namespace {

// Lognormal ns gaps (median ~8 ms, heavy tail) with exact zeros mixed in, as inter-chunk gaps
// of events completed by the same read are.
std::vector<double> gaps(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> d(std::log(8e6), 1.2);
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(i % 17 == 0 ? 0.0 : std::round(d(rng)));
  return v;
}

void expect_within_bound(const Stats& approx, const Stats& exact) {
  EXPECT_EQ(approx.count, exact.count);
  EXPECT_EQ(approx.min, exact.min);
  EXPECT_EQ(approx.max, exact.max);
  EXPECT_NEAR(approx.sum, exact.sum, std::abs(exact.sum) * 1e-12);
  EXPECT_NEAR(approx.avg, exact.avg, std::abs(exact.avg) * 1e-12);
  EXPECT_NEAR(approx.std, exact.std, exact.std * 1e-9);
  for (size_t i = 0; i < kPercentiles.size(); ++i) {
    EXPECT_LE(std::abs(approx.p[i] - exact.p[i]), exact.p[i] * LogHistogram::kRelativeError)
        << kPercentileNames[i] << " approx " << approx.p[i] << " exact " << exact.p[i];
  }
}

TEST(LogHistogramTest, PercentilesWithinStatedRelativeError) {
  for (uint64_t seed : {1, 2, 3}) {
    std::vector<double> v = gaps(200'000, seed);
    LogHistogram h;
    for (double x : v) h.add(x);
    expect_within_bound(h.stats(), compute_stats_copy(v));
  }
  EXPECT_DOUBLE_EQ(LogHistogram::kRelativeError, 1.0 / 2048);
}

TEST(LogHistogramTest, EveryRankWithinBound) {
  std::vector<double> v = gaps(5'000, 9);
  LogHistogram h;
  for (double x : v) h.add(x);
  std::sort(v.begin(), v.end());
  for (size_t k = 0; k < v.size(); ++k) {
    ASSERT_LE(std::abs(h.value_at_rank(k) - v[k]), v[k] * LogHistogram::kRelativeError) << k;
  }
}

TEST(LogHistogramTest, MergeEqualsOneHistogram) {
  std::vector<double> v = gaps(50'000, 4);
  LogHistogram all, a, b;
  for (size_t i = 0; i < v.size(); ++i) {
    all.add(v[i]);
    (i % 3 == 0 ? a : b).add(v[i]);
  }
  a.merge(b);
  const Stats x = a.stats(), y = all.stats();
  EXPECT_EQ(x.count, y.count);
  for (size_t i = 0; i < kPercentiles.size(); ++i) EXPECT_EQ(x.p[i], y.p[i]);
  EXPECT_NEAR(x.std, y.std, y.std * 1e-9);
}

TEST(SampleSeriesTest, ExactUpToTheBoundThenHistogram) {
  std::vector<double> v = gaps(1'000, 5);
  SampleSeries s(1'000);
  for (double x : v) s.add(x);
  ASSERT_TRUE(s.exact());
  EXPECT_EQ(*s.exact_values(), v);
  s.add(1.0, 3);  // three more samples: past the bound
  EXPECT_FALSE(s.exact());
  EXPECT_EQ(s.count(), 1'003u);
  v.insert(v.end(), 3, 1.0);
  expect_within_bound(s.histogram_stats(), compute_stats_copy(v));
}

TEST(SampleSeriesTest, MergeModeDependsOnlyOnTheTotal) {
  std::vector<double> v = gaps(900, 6);
  SampleSeries a(1'000), b(1'000);
  for (size_t i = 0; i < v.size(); ++i) (i < 500 ? a : b).add(v[i]);
  a.merge(std::move(b));
  EXPECT_TRUE(a.exact());  // 900 <= 1000
  EXPECT_EQ(*a.exact_values(), v);
  SampleSeries c(1'000);
  for (int i = 0; i < 200; ++i) c.add(5.0);
  a.merge(std::move(c));  // 1100 > 1000
  EXPECT_FALSE(a.exact());
  EXPECT_EQ(a.count(), 1'100u);
}

}  // namespace
}  // namespace servebench::metrics
