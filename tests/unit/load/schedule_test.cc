#include "load/schedule.h"

#include <gtest/gtest.h>

#include "core/clock.h"

namespace servebench::load {
namespace {

constexpr int64_t kMs = 1'000'000;

PhasePlan closed_plan(int64_t concurrency, std::optional<int64_t> count, int64_t ramp_ns = 0) {
  PhaseSpec s;
  s.concurrency = concurrency;
  s.request_count = count;
  s.concurrency_ramp_ns = ramp_ns;
  return build_phase_plan(s, 1);
}

TEST(Schedule, ClosedLoopFillsSharesThenWaitsForCompletions) {
  core::FakeClock clock(1000 * kMs);
  auto plan = closed_plan(4, 10);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w0(plan, 0, 2, clock.now_ns(), &issued);
  WorkerSchedule w1(plan, 1, 2, clock.now_ns(), &issued);
  Credit c;
  int64_t in0 = 0, in1 = 0;
  while (w0.next_credit(clock.now_ns(), in0, 0, &c)) {
    EXPECT_EQ(c.intended_ns, 1000 * kMs);
    ++in0;
  }
  while (w1.next_credit(clock.now_ns(), in1, 0, &c)) ++in1;
  EXPECT_EQ(in0, 2);
  EXPECT_EQ(in1, 2);
  // A completion frees a slot; the next request's intended time is that instant.
  clock.advance_ns(5 * kMs);
  w0.on_request_done(clock.now_ns());
  --in0;
  ASSERT_TRUE(w0.next_credit(clock.now_ns(), in0, 0, &c));
  EXPECT_EQ(c.intended_ns, 1005 * kMs);
  EXPECT_EQ(c.index, 4u);
  ++in0;
  // Run to the end: exactly 10 credits in total.
  int64_t total = 5;
  for (int round = 0; round < 20; ++round) {
    clock.advance_ns(kMs);
    for (auto* w : {&w0, &w1}) {
      w->on_request_done(clock.now_ns());
      while (w->next_credit(clock.now_ns(), 1, 0, &c)) ++total;
    }
  }
  EXPECT_EQ(total, 10);
  EXPECT_TRUE(w0.exhausted());
  EXPECT_TRUE(w1.exhausted());
}

TEST(Schedule, OpenLoopDealsArrivalsAndKeepsPlannedIntendedUnderCeiling) {
  PhaseSpec s;
  s.request_rate = 100;  // every 10 ms
  s.pattern = ArrivalPattern::kConstant;
  s.request_count = 6;
  s.concurrency = 2;     // ceiling: one slot per worker
  auto plan = build_phase_plan(s, 1);
  core::FakeClock clock(0);
  WorkerSchedule w1(plan, 1, 2, 0, nullptr);
  Credit c;
  EXPECT_FALSE(w1.next_credit(0, 0, 0, &c));  // arrival 1 is due at 10 ms
  EXPECT_EQ(w1.next_wake_ns(), 10 * kMs);
  ASSERT_TRUE(w1.next_credit(10 * kMs, 0, 0, &c));
  EXPECT_EQ(c.index, 1u);
  EXPECT_EQ(c.intended_ns, 10 * kMs);
  // Arrival 3 is due at 30 ms but the worker's single slot is busy until 45 ms.
  EXPECT_FALSE(w1.next_credit(30 * kMs, 1, 0, &c));
  ASSERT_TRUE(w1.next_credit(45 * kMs, 0, 0, &c));
  EXPECT_EQ(c.index, 3u);
  EXPECT_EQ(c.intended_ns, 30 * kMs);  // lag is charged to the request, not hidden
  ASSERT_TRUE(w1.next_credit(50 * kMs, 0, 0, &c));
  EXPECT_EQ(c.index, 5u);
  EXPECT_TRUE(w1.exhausted());
  EXPECT_EQ(w1.next_wake_ns(), kNever);
}

TEST(Schedule, OpenLoopWorkersTogetherIssueExactlyThePlan) {
  PhaseSpec s;
  s.request_rate = 500;
  s.pattern = ArrivalPattern::kGamma;
  s.smoothness = 0.5;
  s.request_count = 1'001;  // (with a duration, sends at "the end of time" would be refused)
  const auto plan = build_phase_plan(s, 99);
  const auto expected = materialize_arrivals(plan);
  ASSERT_EQ(expected.size(), 1'001u);
  for (int workers : {1, 3, 7}) {
    std::vector<int64_t> got(expected.size(), -1);
    for (int w = 0; w < workers; ++w) {
      WorkerSchedule ws(plan, w, workers, 0, nullptr);
      Credit c;
      while (ws.next_credit(kNever - 1, 0, 0, &c)) {
        ASSERT_LT(c.index, got.size());
        ASSERT_EQ(c.index % workers, static_cast<uint64_t>(w));
        got[c.index] = c.intended_ns;
      }
      EXPECT_TRUE(ws.exhausted());
    }
    EXPECT_EQ(got, expected) << workers << " workers";
  }
}

TEST(Schedule, DurationStopsIssuingAndSetsCancelDeadline) {
  PhaseSpec s;
  s.concurrency = 1;
  s.duration_ns = 100 * kMs;
  s.grace_ns = 20 * kMs;
  auto plan = build_phase_plan(s, 1);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 50 * kMs, &issued);
  EXPECT_EQ(w.issue_deadline_ns(), 150 * kMs);
  EXPECT_EQ(w.cancel_deadline_ns(), 170 * kMs);
  Credit c;
  ASSERT_TRUE(w.next_credit(50 * kMs, 0, 0, &c));
  w.on_request_done(149 * kMs);
  ASSERT_TRUE(w.next_credit(149 * kMs, 0, 0, &c));
  w.on_request_done(150 * kMs);
  EXPECT_FALSE(w.next_credit(150 * kMs, 0, 0, &c));
  EXPECT_TRUE(w.exhausted());
  // Infinite grace: no cancel deadline.
  s.grace_ns = kNever;
  auto plan2 = build_phase_plan(s, 1);
  WorkerSchedule w2(plan2, 0, 1, 0, &issued);
  EXPECT_EQ(w2.cancel_deadline_ns(), kNever);
}

TEST(Schedule, StopEndsIssuing) {
  auto plan = closed_plan(2, std::nullopt);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &c));
  w.stop();
  EXPECT_FALSE(w.next_credit(0, 1, 0, &c));
}

TEST(Schedule, PrefillConcurrencyGatesCredits) {
  PhaseSpec s;
  s.concurrency = 4;
  s.prefill_concurrency = 2;
  s.request_count = 100;
  auto plan = build_phase_plan(s, 1);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &c));
  ASSERT_TRUE(w.next_credit(0, 1, 1, &c));
  EXPECT_FALSE(w.next_credit(0, 2, 2, &c));  // two await their first token
  EXPECT_TRUE(w.next_credit(0, 2, 1, &c));   // one got its first token
}

TEST(Schedule, ConcurrencyRampAddsSlotsAtStepInstants) {
  auto plan = closed_plan(3, 100, 2'000 * kMs);  // limits 1, 2, 3 at 0, 1 s, 2 s
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit c;
  int64_t in = 0;
  while (w.next_credit(0, in, 0, &c)) ++in;
  EXPECT_EQ(in, 1);
  EXPECT_EQ(w.next_wake_ns(), 1'000 * kMs);
  EXPECT_FALSE(w.next_credit(999 * kMs, in, 0, &c));
  ASSERT_TRUE(w.next_credit(1'000 * kMs + 5, in, 0, &c));
  EXPECT_EQ(c.intended_ns, 1'000 * kMs);  // the step instant, not when the worker noticed
  ++in;
  EXPECT_FALSE(w.next_credit(1'500 * kMs, in, 0, &c));
  ASSERT_TRUE(w.next_credit(2'000 * kMs, in, 0, &c));
  ++in;
  EXPECT_EQ(w.next_wake_ns(), kNever);
  EXPECT_EQ(in, 3);
}

}  // namespace
}  // namespace servebench::load
