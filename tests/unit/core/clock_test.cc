#include "core/clock.h"

#include <gtest/gtest.h>

namespace servebench::core {
namespace {

TEST(FakeClock, AdvancesOnlyWhenTold) {
  FakeClock c(100, 1'000'000'100);
  EXPECT_EQ(c.now_ns(), 100);
  EXPECT_EQ(c.wall_ns(), 1'000'000'100);
  c.advance_ns(50);
  EXPECT_EQ(c.now_ns(), 150);
  EXPECT_EQ(c.wall_ns(), 1'000'000'150);
  c.set_ns(1000);
  EXPECT_EQ(c.now_ns(), 1000);
}

TEST(WallAnchor, MapsSteadyToWall) {
  FakeClock c(5'000, 2'000'000'000);
  WallAnchor a = WallAnchor::capture(c);
  EXPECT_EQ(a.steady_ns, 5'000);
  EXPECT_EQ(a.wall_ns, 2'000'000'000);
  EXPECT_EQ(a.to_wall_ns(6'000), 2'000'001'000);
}

TEST(SteadyClock, IsMonotonic) {
  const Clock& c = SteadyClock::instance();
  int64_t prev = c.now_ns();
  for (int i = 0; i < 1000; ++i) {
    int64_t t = c.now_ns();
    ASSERT_GE(t, prev);
    prev = t;
  }
  EXPECT_GT(c.wall_ns(), 1'600'000'000'000'000'000);  // after 2020
}

}  // namespace
}  // namespace servebench::core
