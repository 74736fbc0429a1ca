// Closed-loop back-off after connection-level failures (schedule.h): a dead server must not turn
// every slot into a tight loop of failures, and open loop keeps its planned schedule.
#include <gtest/gtest.h>

#include "load/schedule.h"

namespace servebench::load {
namespace {

constexpr int64_t kMs = 1'000'000;

PhasePlan closed_plan(int64_t concurrency, std::optional<int64_t> count,
                      std::optional<int64_t> duration_ns) {
  PhaseSpec s;
  s.concurrency = concurrency;
  s.request_count = count;
  s.duration_ns = duration_ns;
  return build_phase_plan(s, 1);
}

TEST(Backoff, DelayDoublesFromFirstAndIsCapped) {
  const Backoff b;
  EXPECT_EQ(backoff_delay_ns(b, 0), 0);
  EXPECT_EQ(backoff_delay_ns(b, 1), 1 * kMs);
  EXPECT_EQ(backoff_delay_ns(b, 2), 2 * kMs);
  EXPECT_EQ(backoff_delay_ns(b, 10), 512 * kMs);
  EXPECT_EQ(backoff_delay_ns(b, 11), 1'000 * kMs);
  EXPECT_EQ(backoff_delay_ns(b, 1'000'000), 1'000 * kMs);  // no overflow
  EXPECT_EQ(backoff_delay_ns(Backoff{5, 7}, 3), 7);
}

TEST(Backoff, FailedSlotWaitsThenCarriesItsStreakAndSuccessResetsIt) {
  auto plan = closed_plan(1, std::nullopt, std::nullopt);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &c));
  EXPECT_EQ(c.slot_failures, 0);
  // Connection refused after 50 µs: the slot is free again only 1 ms later.
  w.on_request_done(50'000, c.slot_failures + 1);
  EXPECT_FALSE(w.next_credit(50'000, 0, 0, &c));
  EXPECT_EQ(w.backoff_wake_ns(50'000), 50'000 + kMs);
  EXPECT_FALSE(w.next_credit(50'000 + kMs - 1, 0, 0, &c));
  ASSERT_TRUE(w.next_credit(50'000 + kMs, 0, 0, &c));
  EXPECT_EQ(c.intended_ns, 50'000 + kMs);  // the wait is planned, not charged as lag
  EXPECT_EQ(c.slot_failures, 1);
  // Second failure: 2 ms.
  w.on_request_done(2 * kMs, c.slot_failures + 1);
  EXPECT_EQ(w.backoff_wake_ns(2 * kMs), 4 * kMs);
  ASSERT_TRUE(w.next_credit(4 * kMs, 0, 0, &c));
  EXPECT_EQ(c.slot_failures, 2);
  // The server answers (even an HTTP error proves it is there): no wait, streak reset.
  w.on_request_done(5 * kMs, 0);
  EXPECT_EQ(w.backoff_wake_ns(5 * kMs), kNever);
  ASSERT_TRUE(w.next_credit(5 * kMs, 0, 0, &c));
  EXPECT_EQ(c.slot_failures, 0);
}

TEST(Backoff, BackingOffSlotDoesNotHoldBackAHealthyOne) {
  auto plan = closed_plan(2, std::nullopt, std::nullopt);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit a, b, c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &a));
  ASSERT_TRUE(w.next_credit(0, 1, 0, &b));
  w.on_request_done(1 * kMs, 5);  // 16 ms of back-off
  w.on_request_done(2 * kMs, 0);
  ASSERT_TRUE(w.next_credit(2 * kMs, 0, 0, &c));
  EXPECT_EQ(c.intended_ns, 2 * kMs);
  EXPECT_FALSE(w.next_credit(2 * kMs, 1, 0, &c));
  EXPECT_EQ(w.backoff_wake_ns(2 * kMs), 17 * kMs);
}

// The storm of issue 11 item 5, simulated: a dead server refuses every connection 50 µs after the
// send, for a 5 s run at concurrency 10. Without back-off that is ~1,000,000 attempts.
TEST(Backoff, DeadServerAttemptsAreBounded) {
  const int64_t duration = 5'000 * kMs;
  auto plan = closed_plan(10, std::nullopt, duration);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  struct InFlight {
    int64_t done_ns;
    int32_t failures;
  };
  std::vector<InFlight> in_flight;
  int64_t now = 0, attempts = 0;
  for (int step = 0; step < 1'000'000 && !w.exhausted(); ++step) {
    Credit c;
    while (w.next_credit(now, static_cast<int64_t>(in_flight.size()), 0, &c)) {
      ++attempts;
      in_flight.push_back({now + 50'000, c.slot_failures});
    }
    // Next event: the earliest failure, the earliest slot leaving back-off, or the deadline.
    int64_t next = std::min(w.backoff_wake_ns(now), w.next_wake_ns());
    for (const auto& f : in_flight) next = std::min(next, f.done_ns);
    if (next == kNever) break;
    now = std::max(now, next);
    for (size_t i = 0; i < in_flight.size();) {
      if (in_flight[i].done_ns <= now) {
        w.on_request_done(now, in_flight[i].failures + 1);
        in_flight[i] = in_flight.back();
        in_flight.pop_back();
      } else {
        ++i;
      }
    }
  }
  EXPECT_TRUE(w.exhausted());
  // Per slot: 11 doublings up to the 1 s cap (~1 s), then one attempt per second.
  EXPECT_GE(attempts, 10 * 11);
  EXPECT_LE(attempts, 10 * (11 + 5 + 1));
}

TEST(Backoff, RequestsClaimedEndsTheWaitForBackingOffSlots) {
  auto plan = closed_plan(2, 2, std::nullopt);
  std::atomic<int64_t> issued{0};
  WorkerSchedule w(plan, 0, 1, 0, &issued);
  Credit c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &c));
  EXPECT_FALSE(w.requests_claimed());
  ASSERT_TRUE(w.next_credit(0, 1, 0, &c));
  EXPECT_TRUE(w.requests_claimed());
  w.on_request_done(kMs, 10);
  EXPECT_FALSE(w.exhausted());  // only a further claim would find out; the worker asks this
}

TEST(Backoff, OpenLoopKeepsItsSchedule) {
  PhaseSpec s;
  s.request_rate = 100;  // every 10 ms
  s.pattern = ArrivalPattern::kConstant;
  s.request_count = 3;
  auto plan = build_phase_plan(s, 1);
  WorkerSchedule w(plan, 0, 1, 0, nullptr);
  Credit c;
  ASSERT_TRUE(w.next_credit(0, 0, 0, &c));
  w.on_request_done(50'000, 20);  // refused; open loop ignores the streak
  EXPECT_EQ(w.backoff_wake_ns(50'000), kNever);
  EXPECT_EQ(w.next_wake_ns(), 10 * kMs);
  ASSERT_TRUE(w.next_credit(10 * kMs, 0, 0, &c));
  EXPECT_EQ(c.intended_ns, 10 * kMs);
  EXPECT_EQ(c.slot_failures, 0);
}

}  // namespace
}  // namespace servebench::load
