#include "report_html/distributions.h"

#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "metrics/stats.h"

namespace servebench::report_html {
namespace {

TEST(Histogram, CountsEveryFiniteValueOnce) {
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i) v.push_back(std::sqrt(static_cast<double>(i)) * 3.7);
  v.push_back(NAN);
  v.push_back(INFINITY);
  const Histogram h = make_histogram(v);
  ASSERT_EQ(h.counts.size(), static_cast<size_t>(kHistogramBins));
  ASSERT_EQ(h.edges.size(), h.counts.size() + 1);
  EXPECT_EQ(std::accumulate(h.counts.begin(), h.counts.end(), int64_t{0}), 1000);
  EXPECT_DOUBLE_EQ(h.edges.front(), 0.0);
  EXPECT_DOUBLE_EQ(h.edges.back(), std::sqrt(999.0) * 3.7);
  // Each value lands in the bin whose edges hold it.
  for (size_t b = 0; b < h.counts.size(); ++b) {
    int64_t in_bin = 0;
    for (int i = 0; i < 1000; ++i) {
      const double x = v[static_cast<size_t>(i)];
      const bool last = b + 1 == h.counts.size();
      if (x >= h.edges[b] && (x < h.edges[b + 1] || (last && x <= h.edges[b + 1]))) ++in_bin;
    }
    EXPECT_NEAR(static_cast<double>(h.counts[b]), static_cast<double>(in_bin), 1) << "bin " << b;
  }
}

TEST(Histogram, IntegerValuesGetOneBinEach) {
  const Histogram h = make_histogram({3, 4, 4, 5, 5, 5, 7});
  ASSERT_EQ(h.counts.size(), 5u);  // 3..7
  EXPECT_EQ(h.counts, (std::vector<int64_t>{1, 2, 3, 0, 1}));
  EXPECT_DOUBLE_EQ(h.edges.front(), 2.5);
  EXPECT_DOUBLE_EQ(h.edges.back(), 7.5);
}

TEST(Histogram, OneDistinctValueAndEmpty) {
  EXPECT_EQ(make_histogram({2.5, 2.5}).counts, (std::vector<int64_t>{2}));
  EXPECT_TRUE(make_histogram({NAN}).counts.empty());
}

TEST(Cdf, SmallSamplesKeepEveryPoint) {
  const Cdf c = make_cdf({3, 1, 2, NAN});
  EXPECT_EQ(c.x, (std::vector<double>{1, 2, 3}));
  ASSERT_EQ(c.y.size(), 3u);
  EXPECT_DOUBLE_EQ(c.y[0], 1.0 / 3);
  EXPECT_DOUBLE_EQ(c.y[2], 1.0);
}

TEST(Cdf, LargeSamplesAreOrderStatisticsEndingAtTheMaximum) {
  std::vector<double> v;
  for (int i = 10000; i > 0; --i) v.push_back(i);
  const Cdf c = make_cdf(v, 400);
  ASSERT_EQ(c.x.size(), 400u);
  EXPECT_DOUBLE_EQ(c.x.back(), 10000);
  EXPECT_DOUBLE_EQ(c.y.back(), 1.0);
  for (size_t i = 0; i < c.x.size(); ++i) {
    // Value i of 1..n is the rank-th order statistic: y = x / n.
    EXPECT_DOUBLE_EQ(c.y[i], c.x[i] / 10000) << i;
    if (i > 0) {
      EXPECT_GT(c.x[i], c.x[i - 1]);
    }
  }
}

// The points are chosen by selection, not a full sort: they must be the sorted sample's order
// statistics at the same ranks, with ties, non-finite values dropped, and sizes around `points`.
TEST(Cdf, SelectedPointsAreTheSortedOrderStatistics) {
  std::mt19937_64 rng(3);
  for (size_t n : {1u, 7u, 399u, 400u, 401u, 1000u, 25013u}) {
    for (size_t points : {1u, 2u, 50u, 400u}) {
      std::vector<double> v;
      for (size_t i = 0; i < n; ++i) v.push_back(static_cast<double>(rng() % (n / 3 + 2)) * 0.25);
      v.push_back(NAN);
      v.push_back(INFINITY);
      std::vector<double> sorted(v.begin(), v.end() - 2);
      std::sort(sorted.begin(), sorted.end());
      const Cdf c = make_cdf(v, points);
      const size_t k = std::min(n, points);
      ASSERT_EQ(c.x.size(), k);
      for (size_t i = 0; i < k; ++i) {
        const size_t rank = static_cast<size_t>(std::llround(c.y[i] * static_cast<double>(n)));
        ASSERT_EQ(c.x[i], sorted[rank - 1]) << "n=" << n << " points=" << points << " i=" << i;
        if (i > 0) {
          ASSERT_LT(c.y[i - 1], c.y[i]);
        }
      }
      EXPECT_EQ(c.x.back(), sorted.back());
    }
  }
}

TEST(Percentile, LinearLikeNumpy) {
  const std::vector<double> s = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(percentile_of_sorted(s, 50), 2.5);
  EXPECT_DOUBLE_EQ(percentile_of_sorted(s, 90), 3.7);
  EXPECT_TRUE(std::isnan(percentile_of_sorted({}, 50)));
}

// The report's bands use the summary's percentile, bit for bit: numpy's interpolation, which
// reads from the upper neighbour past the midpoint (a + d * t and b - d * (1 - t) differ in the
// last bit for some values).
TEST(Percentile, SameBitsAsTheSummary) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> value(0.0, 1000.0);
  for (int round = 0; round < 200; ++round) {
    std::vector<double> s(3 + round % 17);
    for (double& v : s) v = value(rng);
    std::sort(s.begin(), s.end());
    for (double q : {10.0, 33.0, 50.0, 77.0, 90.0, 99.0}) {
      EXPECT_EQ(percentile_of_sorted(s, q), metrics::percentile_sorted(s, q)) << round << " " << q;
    }
  }
}

}  // namespace
}  // namespace servebench::report_html
