// The load side of the AIPerf parity options: warm-up load shape, rate series, prefill ramp,
// model order and the failed-request threshold.
#include <gtest/gtest.h>

#include <map>

#include "load/failure_threshold.h"
#include "load/model_order.h"
#include "load/plan.h"

namespace servebench::load {
namespace {

constexpr int64_t kS = 1'000'000'000;

LoadSpec closed_loop(int64_t c) {
  LoadSpec s;
  s.concurrency = c;
  s.request_count = 20;
  s.warmup_request_count = 5;
  return s;
}

TEST(WarmupShape, FallsBackToProfilingValues) {
  auto phases = phases_from_spec(closed_loop(4));
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].phase, record::Phase::kWarmup);
  EXPECT_EQ(phases[0].concurrency, 4);
  EXPECT_FALSE(phases[0].request_rate);
  EXPECT_EQ(phases[0].grace_ns, kNever);
}

TEST(WarmupShape, OwnConcurrencyAndRate) {
  LoadSpec s = closed_loop(4);
  s.warmup_load.concurrency = 2;
  s.warmup_load.grace_ns = 3 * kS;
  auto p = phases_from_spec(s);
  EXPECT_EQ(p[0].concurrency, 2);
  EXPECT_EQ(p[0].grace_ns, 3 * kS);
  EXPECT_EQ(p[1].concurrency, 4) << "profiling keeps its own";
  EXPECT_EQ(p[1].grace_ns, kNever);

  LoadSpec r = closed_loop(4);
  r.warmup_load.request_rate = 50.0;
  r.warmup_load.arrival_pattern = ArrivalPattern::kConstant;
  auto q = phases_from_spec(r);
  ASSERT_TRUE(q[0].request_rate);
  EXPECT_DOUBLE_EQ(*q[0].request_rate, 50.0);
  EXPECT_EQ(q[0].pattern, ArrivalPattern::kConstant);
  EXPECT_FALSE(q[0].concurrency) << "the closed-loop default is no ceiling for a warm-up rate";
  EXPECT_FALSE(q[1].request_rate);
  // Constant 50/s: arrivals 20 ms apart, five of them.
  auto arrivals = materialize_arrivals(build_phase_plan(q[0], 7));
  ASSERT_EQ(arrivals.size(), 5u);
  EXPECT_EQ(arrivals[1] - arrivals[0], 20'000'000);
}

TEST(RateSeries, InterpolatesAndHolds) {
  RateSeries s({{0, 10.0}, {10 * kS, 30.0}, {20 * kS, 20.0}});
  EXPECT_DOUBLE_EQ(s.rate_at(0), 10.0);
  EXPECT_DOUBLE_EQ(s.rate_at(5 * kS), 20.0);
  EXPECT_DOUBLE_EQ(s.rate_at(15 * kS), 25.0);
  EXPECT_DOUBLE_EQ(s.rate_at(99 * kS), 20.0);
  RateSeries late({{2 * kS, 4.0}, {4 * kS, 8.0}});
  EXPECT_DOUBLE_EQ(late.rate_at(0), 4.0) << "before the first point: its rate";
}

TEST(RateSeries, ArrivalsFollowTheCurve) {
  LoadSpec s;
  s.request_rate = 10.0;
  s.arrival_pattern = ArrivalPattern::kConstant;
  s.duration_ns = 4 * kS;
  s.rate_series = std::make_shared<const RateSeries>(
      std::vector<RateSeriesPoint>{{0, 10.0}, {2 * kS, 10.0}, {2 * kS + 1, 40.0}});
  const Plan plan = build_plan(s, 1);
  auto a = materialize_arrivals(plan.phases.back());
  int64_t first = 0, second = 0;
  for (int64_t t : a) (t < 2 * kS ? first : second)++;
  EXPECT_NEAR(first, 20, 1);
  EXPECT_NEAR(second, 80, 4);  // the gap drawn just before 2 s is at the old rate
  // Same seed, same plan.
  EXPECT_EQ(a, materialize_arrivals(build_plan(s, 1).phases.back()));
}

TEST(RateSeries, StartsAfterTheRateRamp) {
  PhaseSpec p;
  p.request_rate = 5.0;
  p.rate_ramp_ns = 1 * kS;
  p.rate_series = std::make_shared<const RateSeries>(std::vector<RateSeriesPoint>{{0, 5.0}, {kS, 15.0}});
  EXPECT_LT(phase_rate_at(p, 0), 5.0);
  EXPECT_DOUBLE_EQ(phase_rate_at(p, kS), 5.0);
  EXPECT_DOUBLE_EQ(phase_rate_at(p, kS + kS / 2), 10.0);
}

TEST(PrefillRamp, StepsLikeTheConcurrencyRamp) {
  PhaseSpec p;
  p.concurrency = 8;
  p.prefill_concurrency = 4;
  p.prefill_ramp_ns = 3 * kS;
  const PhasePlan plan = build_phase_plan(p, 1);
  EXPECT_EQ(plan.prefill_limit_at(0), 1);
  EXPECT_EQ(plan.prefill_limit_at(kS), 2);
  EXPECT_EQ(plan.prefill_limit_at(3 * kS), 4);
  PhaseSpec no_ramp = p;
  no_ramp.prefill_ramp_ns = 0;
  EXPECT_EQ(build_phase_plan(no_ramp, 1).prefill_limit_at(0), 4);
}

TEST(ModelOrder, RoundRobinNeedsNoTable) {
  EXPECT_TRUE(build_model_order(ModelChoice::kRoundRobin, 3, {}, 1).empty());
  EXPECT_TRUE(build_model_order(ModelChoice::kRandom, 1, {}, 1).empty());
}

TEST(ModelOrder, RandomAndWeightedShares) {
  auto r = build_model_order(ModelChoice::kRandom, 4, {}, 9, 40000);
  std::map<uint32_t, int> n;
  for (auto m : r) n[m]++;
  ASSERT_EQ(n.size(), 4u);
  for (auto& [m, c] : n) EXPECT_NEAR(c, 10000, 400) << m;
  EXPECT_EQ(r, build_model_order(ModelChoice::kRandom, 4, {}, 9, 40000)) << "seeded";
  EXPECT_NE(r, build_model_order(ModelChoice::kRandom, 4, {}, 10, 40000));

  auto w = build_model_order(ModelChoice::kWeighted, 3, {0.7, 0.3, 0.0}, 9, 40000);
  std::map<uint32_t, int> k;
  for (auto m : w) k[m]++;
  EXPECT_NEAR(k[0], 28000, 500);
  EXPECT_NEAR(k[1], 12000, 500);
  EXPECT_EQ(k[2], 0);
}

record::RequestRecord rec(bool ok, record::Phase phase = record::Phase::kProfiling) {
  record::RequestRecord r;
  r.phase = phase;
  if (!ok) r.error = record::ErrorKind::kHttpStatus;
  return r;
}

TEST(FailureThreshold, ArmsAfterTheFloorAndTripsOnce) {
  FailureThreshold t(0.2, 4);  // floor max(4, 10) = 10
  for (int i = 0; i < 9; ++i) EXPECT_FALSE(t.add(rec(false))) << "not armed before 10 records";
  EXPECT_TRUE(t.add(rec(false)));
  EXPECT_TRUE(t.tripped());
  EXPECT_FALSE(t.add(rec(false))) << "trips once";
  EXPECT_NE(t.reason().find("10 of 10"), std::string::npos) << t.reason();
}

TEST(FailureThreshold, RatioAtOrBelowDoesNotTrip) {
  FailureThreshold t(0.5, 20);  // floor 20
  for (int i = 0; i < 40; ++i) EXPECT_FALSE(t.add(rec(i % 2 == 0)));
  EXPECT_FALSE(t.tripped());
  EXPECT_FALSE(t.add(rec(false, record::Phase::kWarmup)));
  EXPECT_EQ(t.total(), 40) << "warm-up records do not count";
  record::RequestRecord c = rec(false);
  c.error = record::ErrorKind::kCancelled;
  t.add(c);
  EXPECT_EQ(t.total(), 40) << "cancelled records do not count";
  EXPECT_TRUE(t.add(rec(false)));
}

}  // namespace
}  // namespace servebench::load
