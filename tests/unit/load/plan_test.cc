#include "load/plan.h"

#include <cmath>
#include <numeric>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

// A plan with its arrivals materialized, for inspection.
struct Built : PhasePlan {
  std::vector<int64_t> arrivals_ns;
};
Built build(const PhaseSpec& spec, uint64_t seed) {
  Built b;
  static_cast<PhasePlan&>(b) = build_phase_plan(spec, seed);
  b.arrivals_ns = materialize_arrivals(b);
  return b;
}

PhaseSpec rate_spec(double rate, ArrivalPattern pattern, int64_t count, double smoothness = 1.0) {
  PhaseSpec s;
  s.request_rate = rate;
  s.pattern = pattern;
  s.smoothness = smoothness;
  s.request_count = count;
  return s;
}

struct GapStats {
  double mean_s;
  double cv;
};

GapStats gap_stats(const std::vector<int64_t>& arrivals) {
  std::vector<double> gaps;
  for (size_t i = 1; i < arrivals.size(); ++i) gaps.push_back((arrivals[i] - arrivals[i - 1]) / 1e9);
  const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / gaps.size();
  double var = 0;
  for (double g : gaps) var += (g - mean) * (g - mean);
  var /= gaps.size() - 1;
  return {mean, std::sqrt(var) / mean};
}

TEST(Plan, ConstantRateIsExact) {
  auto p = build(rate_spec(10, ArrivalPattern::kConstant, 100), 1);
  ASSERT_EQ(p.arrivals_ns.size(), 100u);
  for (size_t i = 0; i < p.arrivals_ns.size(); ++i) EXPECT_EQ(p.arrivals_ns[i], int64_t(i) * 100'000'000);
  // A rate whose period is not a whole number of ns does not drift.
  auto q = build(rate_spec(3, ArrivalPattern::kConstant, 3001), 1);
  EXPECT_NEAR(q.arrivals_ns.back(), 1'000'000'000'000, 1);
}

TEST(Plan, PoissonGapsHaveMeanAndCvOfExponential) {
  auto p = build(rate_spec(100, ArrivalPattern::kPoisson, 50'000), 42);
  auto s = gap_stats(p.arrivals_ns);
  EXPECT_NEAR(s.mean_s, 0.01, 0.01 * 0.02);
  EXPECT_NEAR(s.cv, 1.0, 0.03);
}

TEST(Plan, GammaGapsHaveMeanAndCvOneOverSqrtShape) {
  for (double shape : {0.25, 1.0, 4.0}) {
    auto p = build(rate_spec(50, ArrivalPattern::kGamma, 50'000, shape), 7);
    auto s = gap_stats(p.arrivals_ns);
    EXPECT_NEAR(s.mean_s, 0.02, 0.02 * 0.03) << "shape " << shape;
    EXPECT_NEAR(s.cv, 1.0 / std::sqrt(shape), 0.05 / std::sqrt(shape)) << "shape " << shape;
  }
}

TEST(Plan, SameSeedSamePlanDifferentSeedDifferentPlan) {
  auto spec = rate_spec(200, ArrivalPattern::kGamma, 1000, 0.5);
  auto a = build(spec, 1234);
  auto b = build(spec, 1234);
  auto c = build(spec, 1235);
  EXPECT_EQ(a.arrivals_ns, b.arrivals_ns);
  EXPECT_NE(a.arrivals_ns, c.arrivals_ns);
  // Warm-up and profiling draw from different named streams.
  auto w = spec;
  w.phase = record::Phase::kWarmup;
  EXPECT_NE(build(w, 1234).arrivals_ns, a.arrivals_ns);
}

TEST(Plan, DurationBoundsArrivalsAndCountWinsWhenSmaller) {
  PhaseSpec s = rate_spec(10, ArrivalPattern::kConstant, 0);
  s.request_count.reset();
  s.duration_ns = 2'000'000'000;
  auto p = build(s, 1);
  EXPECT_EQ(p.arrivals_ns.size(), 20u);
  EXPECT_LT(p.arrivals_ns.back(), 2'000'000'000);
  s.request_count = 5;
  EXPECT_EQ(build(s, 1).arrivals_ns.size(), 5u);
}

TEST(Plan, RateRampStepsEveryHundredMilliseconds) {
  const int64_t ramp = 1'000'000'000;
  EXPECT_DOUBLE_EQ(ramped_rate(100, ramp, 0), 10);
  EXPECT_DOUBLE_EQ(ramped_rate(100, ramp, 99'999'999), 10);
  EXPECT_DOUBLE_EQ(ramped_rate(100, ramp, 100'000'000), 20);
  EXPECT_DOUBLE_EQ(ramped_rate(100, ramp, 550'000'000), 60);
  EXPECT_DOUBLE_EQ(ramped_rate(100, ramp, 950'000'000), 100);
  EXPECT_DOUBLE_EQ(ramped_rate(100, ramp, 5'000'000'000), 100);
  EXPECT_DOUBLE_EQ(ramped_rate(100, 0, 0), 100);
  // Constant arrivals during the ramp use the rate at the previous arrival: first gap 1/10 s.
  PhaseSpec s = rate_spec(100, ArrivalPattern::kConstant, 200);
  s.rate_ramp_ns = ramp;
  auto p = build(s, 1);
  EXPECT_EQ(p.arrivals_ns[1], 100'000'000);   // rate 10 at t=0
  EXPECT_EQ(p.arrivals_ns[2], 150'000'000);   // rate 20 at t=100 ms
  // After the ramp, gaps are exactly 10 ms.
  EXPECT_EQ(p.arrivals_ns[199] - p.arrivals_ns[198], 10'000'000);
}

TEST(Plan, ConcurrencyRampStepsByOneEvenlySpaced) {
  PhaseSpec s;
  s.concurrency = 5;
  s.concurrency_ramp_ns = 4'000'000'000;
  auto p = build(s, 1);
  ASSERT_EQ(p.concurrency_steps.size(), 5u);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(p.concurrency_steps[k].offset_ns, int64_t(k) * 1'000'000'000);
    EXPECT_EQ(p.concurrency_steps[k].limit, k + 1);
  }
  EXPECT_EQ(p.concurrency_limit_at(0), 1);
  EXPECT_EQ(p.concurrency_limit_at(999'999'999), 1);
  EXPECT_EQ(p.concurrency_limit_at(1'000'000'000), 2);
  EXPECT_EQ(p.concurrency_limit_at(10'000'000'000), 5);
  s.concurrency_ramp_ns = 0;
  EXPECT_EQ(build(s, 1).concurrency_limit_at(0), 5);
}

TEST(Plan, WorkerSharesSumToTheLimit) {
  for (int64_t limit : {1, 5, 7, 64, 1000})
    for (int workers : {1, 2, 3, 8}) {
      int64_t sum = 0;
      for (int w = 0; w < workers; ++w) sum += worker_share(limit, w, workers);
      EXPECT_EQ(sum, limit);
    }
}

TEST(Plan, PhasesFromSpecAddWarmupWithInfiniteGrace) {
  LoadSpec spec;
  spec.concurrency = 4;
  spec.warmup_request_count = 3;
  spec.duration_ns = 5'000'000'000;
  spec.grace_ns = 30'000'000'000;
  auto phases = phases_from_spec(spec);
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].phase, record::Phase::kWarmup);
  EXPECT_EQ(phases[0].request_count, 3);
  EXPECT_EQ(phases[0].grace_ns, kNever);
  EXPECT_EQ(phases[1].phase, record::Phase::kProfiling);
  EXPECT_FALSE(phases[1].request_count.has_value());
  EXPECT_EQ(phases[1].grace_ns, 30'000'000'000);
  EXPECT_EQ(phases[1].concurrency, 4);
}

TEST(Plan, WarmupSessionsCountSessionsOrRequests) {
  LoadSpec spec;
  spec.concurrency = 2;
  spec.warmup_sessions = 5;
  EXPECT_EQ(phases_from_spec(spec)[0].request_count, 5);  // sessions of one turn are requests
  spec.sessions = true;
  const auto phases = phases_from_spec(spec);
  EXPECT_EQ(phases[0].session_count, 5);
  EXPECT_TRUE(phases[0].sessions);
  EXPECT_TRUE(phases[1].sessions);
}

TEST(Plan, UserCentricSessionsKeepOnlyTheGivenCeiling) {
  LoadSpec spec;
  spec.request_rate = 3;
  spec.sessions = true;
  spec.user_centric = true;
  spec.session_count = 9;
  auto p = phases_from_spec(spec).back();
  EXPECT_TRUE(p.user_centric);
  EXPECT_FALSE(p.request_rate.has_value());
  EXPECT_FALSE(p.concurrency.has_value());
  EXPECT_EQ(p.session_count, 9);
  spec.concurrency_ceiling = 4;
  EXPECT_EQ(phases_from_spec(spec).back().concurrency, 4);
}

TEST(Plan, DefaultWorkerCount) {
  LoadSpec c;
  c.concurrency = 100;
  EXPECT_EQ(default_worker_count(c, 8), 7);
  EXPECT_EQ(default_worker_count(c, 1), 1);
  c.concurrency = 3;
  EXPECT_EQ(default_worker_count(c, 8), 3);
  c.workers_max = 2;
  EXPECT_EQ(default_worker_count(c, 8), 2);
  c.concurrency.reset();
  c.request_rate = 10;
  c.workers_max.reset();
  EXPECT_EQ(default_worker_count(c, 16), 15);
  c.prefill_concurrency = 4;
  EXPECT_EQ(default_worker_count(c, 16), 4);
}

}  // namespace
}  // namespace servebench::load
