// Pause points: a processor thread yields its core every kPauseIntervalNs of record processing,
// and only a thread with a pacer installed does.
#include "record/pause_point.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "record/record_processor.h"
#include "tokenizer/tokenizer.h"

namespace servebench::record {
namespace {

int64_t g_now = 0;
int g_yield_calls = 0;
int64_t fake_clock() { return g_now; }
void count_yield() { ++g_yield_calls; }

// Sets the fake clock to `t`, ticks, and returns the yields so far.
int tick_at(PausePacer* pacer, int64_t t) {
  g_now = t;
  pacer->tick();
  return g_yield_calls;
}

TEST(PausePacer, YieldsOnceEachIntervalOfProcessingAndNotBefore) {
  g_now = 1000;
  g_yield_calls = 0;
  PausePacer pacer(50, fake_clock, count_yield);
  EXPECT_EQ(tick_at(&pacer, 1049), 0);  // 49 ns of work: not yet
  EXPECT_EQ(tick_at(&pacer, 1050), 1);  // the interval reached
  EXPECT_EQ(tick_at(&pacer, 1050), 1);  // counted again from the yield
  EXPECT_EQ(tick_at(&pacer, 1099), 1);
  EXPECT_EQ(tick_at(&pacer, 1100), 2);
  EXPECT_EQ(pacer.yields(), 2u);
}

// The time a yield spends away (the worker running) is not processing time.
void yield_for_a_while() {
  ++g_yield_calls;
  g_now += 1000;
}

TEST(PausePacer, TimeAwayInTheYieldDoesNotCount) {
  g_now = 0;
  g_yield_calls = 0;
  PausePacer pacer(50, fake_clock, yield_for_a_while);
  ASSERT_EQ(tick_at(&pacer, 50), 1);  // the clock reads 1050 after the yield
  EXPECT_EQ(tick_at(&pacer, 1099), 1);
  EXPECT_EQ(tick_at(&pacer, 1100), 2);
}

TEST(PausePoint, TicksOnlyTheCallingThreadsPacerAndScopesNest) {
  EXPECT_EQ(current_pause_pacer(), nullptr);
  pause_point();  // no pacer: nothing happens (and nothing crashes)
  g_now = 0;
  g_yield_calls = 0;
  PausePacer outer(1, fake_clock, count_yield);
  {
    ScopedPausePacer a(&outer);
    EXPECT_EQ(current_pause_pacer(), &outer);
    PausePacer inner(1, fake_clock, count_yield);
    {
      ScopedPausePacer b(&inner);
      g_now = 5;
      pause_point();
      EXPECT_EQ(inner.yields(), 1u);
      EXPECT_EQ(outer.yields(), 0u);
    }
    EXPECT_EQ(current_pause_pacer(), &outer);
    g_now = 10;
    pause_point();
    EXPECT_EQ(outer.yields(), 1u);
  }
  EXPECT_EQ(current_pause_pacer(), nullptr);
}

// The processor's threads pace themselves with the real clock and sched_yield: a consumer busy
// for several intervals sees its thread's pacer yield. (The test waits for the yields, bounded by
// a generous deadline, so a slow machine cannot fail it; without a pacer it never passes.)
TEST(PausePoint, ProcessorThreadsHaveAPacerThatYieldsDuringLongWork) {
  std::atomic<bool> had_pacer{false};
  std::atomic<uint64_t> yields{0};
  RecordProcessor proc(*tokenizer::load_tokenizer("simple"), CountOptions{}, 1,
                       [&](const std::vector<RequestRecord>&, size_t) {
                         const PausePacer* p = current_pause_pacer();
                         had_pacer = p != nullptr;
                         if (p == nullptr) return;
                         const int64_t deadline = pause_clock_ns() + 10'000'000'000;
                         while (p->yields() < 3 && pause_clock_ns() < deadline) pause_point();
                         yields = p->yields();
                       });
  std::vector<RequestRecord> batch(1);
  proc.submit(std::move(batch));
  proc.finish();
  EXPECT_TRUE(had_pacer);
  EXPECT_GE(yields.load(), 3u);
  EXPECT_EQ(current_pause_pacer(), nullptr);  // the test's own thread has none
}

}  // namespace
}  // namespace servebench::record
