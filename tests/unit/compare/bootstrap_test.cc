// The bootstrap's statistics: the order-statistic shortcut draws what explicit resampling
// draws; the 95 % interval covers a known difference in about 95 % of seeded trials; two runs
// from one distribution are called different in about 5 % of trials.
#include "compare/bootstrap.h"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

namespace servebench::compare {
namespace {

std::vector<double> sorted_sample(core::Rng* rng, size_t n, double shift) {
  std::vector<double> v(n);
  for (double& x : v) x = shift + rng->exponential(10.0);
  std::sort(v.begin(), v.end());
  return v;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// Binomial tolerance: |hits - p n| within 4 standard deviations (a false failure about once
// in 15,000 runs; every trial is seeded, so a given build passes or fails deterministically).
void expect_binomial(int hits, int trials, double p, const char* what) {
  const double sd = std::sqrt(trials * p * (1 - p));
  EXPECT_NEAR(hits, p * trials, 4 * sd) << what << ": " << hits << " of " << trials;
}

TEST(Bootstrap, ShortcutMatchesExplicitResampling) {
  core::Rng data_rng(11);
  const std::vector<double> s = sorted_sample(&data_rng, 60, 0);
  for (double q : {50.0, 90.0, 99.0, 1.0}) {
    core::Rng fast_rng(1), slow_rng(2);
    std::vector<double> fast, slow;
    for (int i = 0; i < 20000; ++i) {
      fast.push_back(resampled_percentile(s, q, &fast_rng));
      slow.push_back(resampled_percentile_naive(s, q, &slow_rng));
    }
    // Same distribution: the mean and P(replicate <= x) at every sample value agree within
    // sampling error (20,000 draws each: sd of a fraction <= 0.0036).
    const double spread = s.back() - s.front();
    EXPECT_NEAR(mean(fast), mean(slow), 0.01 * spread) << "q=" << q;
    for (double x : s) {
      const auto le = [x](const std::vector<double>& v) {
        return static_cast<double>(std::count_if(v.begin(), v.end(), [x](double y) { return y <= x; })) /
               static_cast<double>(v.size());
      };
      EXPECT_NEAR(le(fast), le(slow), 0.02) << "q=" << q << " x=" << x;
    }
  }
}

TEST(Bootstrap, ResampledPercentileStaysInTheSample) {
  core::Rng rng(5);
  const std::vector<double> s = {1, 2, 3};
  for (int i = 0; i < 1000; ++i) {
    const double v = resampled_percentile(s, 75, &rng);
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 3);
  }
  EXPECT_EQ(resampled_percentile({4.0}, 50, &rng), 4.0);
}

TEST(Bootstrap, IntervalCoversAKnownDifferenceAbout95PercentOfTrials) {
  // B = A's distribution shifted by 3: every percentile differs by exactly 3.
  const int trials = 300;
  for (double q : {50.0, 90.0}) {
    int covered = 0;
    for (int t = 0; t < trials; ++t) {
      core::Rng rng(1000 + static_cast<uint64_t>(t));
      const auto a = sorted_sample(&rng, 500, 0);
      const auto b = sorted_sample(&rng, 400, 3);
      const Interval iv = percentile_difference(a, b, q, 1000, &rng);
      covered += iv.low <= 3 && 3 <= iv.high ? 1 : 0;
    }
    expect_binomial(covered, trials, 0.95, q == 50 ? "p50 coverage" : "p90 coverage");
  }
}

TEST(Bootstrap, SameDistributionIsRarelyCalledDifferent) {
  const int trials = 300;
  int different = 0;
  for (int t = 0; t < trials; ++t) {
    core::Rng rng(5000 + static_cast<uint64_t>(t));
    const auto a = sorted_sample(&rng, 400, 0);
    const auto b = sorted_sample(&rng, 400, 0);
    const Interval iv = percentile_difference(a, b, 50, 1000, &rng);
    different += iv.low > 0 || iv.high < 0 ? 1 : 0;
  }
  expect_binomial(different, trials, 0.05, "false positives");
}

TEST(Bootstrap, SeededAndDeterministic) {
  core::Rng data(3);
  const auto a = sorted_sample(&data, 200, 0), b = sorted_sample(&data, 200, 1);
  core::Rng r1(42), r2(42), r3(43);
  const Interval x = percentile_difference(a, b, 99, 500, &r1);
  const Interval y = percentile_difference(a, b, 99, 500, &r2);
  const Interval z = percentile_difference(a, b, 99, 500, &r3);
  EXPECT_EQ(x.low, y.low);
  EXPECT_EQ(x.high, y.high);
  EXPECT_NE(x.low, z.low);
  EXPECT_LE(x.low, x.high);
}

TEST(Bootstrap, MeanDifferenceCoversTheShift) {
  const int trials = 300;
  int covered = 0;
  for (int t = 0; t < trials; ++t) {
    core::Rng rng(9000 + static_cast<uint64_t>(t));
    const auto a = sorted_sample(&rng, 300, 0), b = sorted_sample(&rng, 300, 2);
    const Interval iv = mean_difference(a, b);
    covered += iv.low <= 2 && 2 <= iv.high ? 1 : 0;
  }
  expect_binomial(covered, trials, 0.95, "mean coverage");
}

TEST(Bootstrap, BetaDrawHasItsMean) {
  core::Rng rng(8);
  double s = 0;
  for (int i = 0; i < 20000; ++i) s += beta_draw(3, 7, &rng);
  EXPECT_NEAR(s / 20000, 0.3, 0.005);
}

}  // namespace
}  // namespace servebench::compare
