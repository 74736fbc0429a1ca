#include "transport/timer_slots.h"

#include <gtest/gtest.h>

#include <set>

namespace servebench::transport {
namespace {

TEST(TimerSlots, TakeHandsBackTheCallbackOnce) {
  TimerSlots t;
  int ran = 0;
  const uint64_t id = t.add([&] { ++ran; });
  EXPECT_NE(id, 0u);
  EXPECT_TRUE(t.live(id));
  auto cb = t.take(id);
  ASSERT_TRUE(cb);
  cb();
  EXPECT_EQ(ran, 1);
  EXPECT_FALSE(t.live(id));
  EXPECT_FALSE(t.take(id));
  EXPECT_FALSE(t.cancel(id));
}

// A reused slot gets a new generation: the old id neither sees nor cancels the new timer.
TEST(TimerSlots, StaleIdsStayDeadWhenTheirSlotIsReused) {
  TimerSlots t;
  const uint64_t a = t.add([] {});
  EXPECT_TRUE(t.cancel(a));
  const uint64_t b = t.add([] {});
  EXPECT_EQ(static_cast<uint32_t>(a), static_cast<uint32_t>(b));  // the same slot
  EXPECT_NE(a, b);
  EXPECT_FALSE(t.live(a));
  EXPECT_FALSE(t.cancel(a));
  EXPECT_TRUE(t.live(b));
  EXPECT_TRUE(t.cancel(b));
}

TEST(TimerSlots, ManyPendingTimersHaveDistinctIds) {
  TimerSlots t;
  std::set<uint64_t> ids;
  for (int round = 0; round < 3; ++round) {
    std::vector<uint64_t> now;
    for (int i = 0; i < 100; ++i) now.push_back(t.add([] {}));
    for (uint64_t id : now) EXPECT_TRUE(ids.insert(id).second) << id;
    for (size_t i = 0; i < now.size(); i += 2) EXPECT_TRUE(t.cancel(now[i]));
    for (size_t i = 1; i < now.size(); i += 2) EXPECT_TRUE(t.live(now[i]));
    for (size_t i = 1; i < now.size(); i += 2) EXPECT_TRUE(t.take(now[i]));
  }
  EXPECT_FALSE(t.live(0));
  EXPECT_FALSE(t.live(uint64_t{1} << 40));
}

}  // namespace
}  // namespace servebench::transport
