// Student-t quantiles against published table values, CDF identities, and the interval's
// coverage on seeded normal samples.
#include "experiment/student_t.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/rng.h"
#include "experiment/aggregate.h"

namespace servebench::experiment {
namespace {

struct Row {
  double confidence;
  double df;
  double t;
};

TEST(StudentT, MatchesTableValues) {
  // Two-sided critical values (any statistics table, 3 decimals).
  const std::vector<Row> rows = {
      {0.95, 1, 12.706}, {0.95, 2, 4.303},  {0.95, 4, 2.776},  {0.95, 9, 2.262},
      {0.95, 30, 2.042}, {0.99, 4, 4.604},  {0.99, 1, 63.657}, {0.90, 5, 2.015},
      {0.90, 1, 6.314},  {0.80, 10, 1.372}, {0.999, 3, 12.924}, {0.95, 1000, 1.962}};
  for (const auto& r : rows)
    EXPECT_NEAR(t_critical(r.confidence, r.df), r.t, 0.0006)
        << "confidence " << r.confidence << " df " << r.df;
}

TEST(StudentT, OneDegreeIsCauchy) {
  // df = 1 is the Cauchy distribution: CDF = 1/2 + atan(t)/pi.
  for (double t : {-5.0, -1.0, 0.0, 0.3, 2.0, 40.0})
    EXPECT_NEAR(student_t_cdf(t, 1), 0.5 + std::atan(t) / M_PI, 1e-12) << t;
}

TEST(StudentT, TwoDegreesClosedForm) {
  // df = 2: CDF = 1/2 + t / (2 sqrt(2 + t^2)).
  for (double t : {-3.0, -0.5, 0.0, 1.0, 7.0})
    EXPECT_NEAR(student_t_cdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)), 1e-12) << t;
}

TEST(StudentT, QuantileInvertsCdf) {
  for (double df : {1.0, 2.5, 7.0, 60.0})
    for (double p : {0.001, 0.2, 0.5, 0.77, 0.975, 0.9999})
      EXPECT_NEAR(student_t_cdf(student_t_quantile(p, df), df), p, 1e-10) << df << " " << p;
}

TEST(StudentT, RejectsOutOfRange) {
  EXPECT_TRUE(std::isnan(student_t_quantile(0, 3)));
  EXPECT_TRUE(std::isnan(student_t_quantile(1, 3)));
  EXPECT_TRUE(std::isnan(student_t_cdf(1, 0)));
}

double normal(core::Rng& rng, double mean, double sd) { return rng.normal(mean, sd); }

// The interval of n trials covers the true mean at its nominal rate (1000 seeded repetitions:
// the binomial standard error at 0.95 is 0.007, so ±0.03 is over 4 standard errors).
void check_coverage(int n, double confidence, uint64_t seed) {
  core::Rng rng(seed);
  const double truth = 120.0;
  int covered = 0;
  const int reps = 1000;
  for (int r = 0; r < reps; ++r) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(normal(rng, truth, 15.0));
    const TrialStats s = summarize_trials(v, confidence);
    covered += (s.ci_low <= truth && truth <= s.ci_high) ? 1 : 0;
  }
  const double rate = static_cast<double>(covered) / reps;
  EXPECT_NEAR(rate, confidence, 0.03) << "n " << n << " confidence " << confidence;
}

TEST(TrialIntervals, CoverNominalRate) {
  check_coverage(3, 0.95, 1);
  check_coverage(5, 0.95, 2);
  check_coverage(10, 0.95, 3);
  check_coverage(5, 0.90, 4);
}

TEST(TrialIntervals, NormalQuantileWouldUnderCover) {
  // The same samples with z = 1.96 instead of t: with 3 trials the coverage falls far below
  // 0.95, which is why the t quantile matters (and what this test guards against).
  core::Rng rng(11);
  int covered = 0;
  for (int r = 0; r < 1000; ++r) {
    std::vector<double> v;
    for (int i = 0; i < 3; ++i) v.push_back(normal(rng, 0, 1));
    const TrialStats s = summarize_trials(v, 0.95);
    covered += std::fabs(s.mean) <= 1.96 * s.se ? 1 : 0;
  }
  EXPECT_LT(covered, 900);
}

}  // namespace
}  // namespace servebench::experiment
