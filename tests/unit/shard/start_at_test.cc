#include <gtest/gtest.h>

#include "config/flag_table.h"
#include "core/clock.h"
#include "shard/start_gate.h"

namespace servebench {
namespace {

TEST(StartAt, UnixSecondsAndIso8601Agree) {
  auto a = config::parse_start_at("1767225600");
  auto b = config::parse_start_at("2026-01-01T00:00:00Z");
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_EQ(*a, 1'767'225'600'000'000'000);
  EXPECT_EQ(*a, *b);
  auto c = config::parse_start_at("2026-01-01T00:00:00.25Z");
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, *a + 250'000'000);
  auto d = config::parse_start_at("1767225600.5");
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, *a + 500'000'000);
}

TEST(StartAt, RejectsNonUtcAndGarbageWithBothForms) {
  for (const char* bad : {"2026-01-01T00:00:00+02:00", "tomorrow", "-5", "2026-13-01T00:00:00Z", ""}) {
    auto r = config::parse_start_at(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("--start-at"), std::string::npos);
    EXPECT_NE(r.error().message.find("ISO 8601"), std::string::npos);
  }
}

TEST(StartGate, APastInstantIsLateAndDoesNotWait) {
  core::FakeClock clock(1000, 2'000'000'000'000'000'000);
  const auto r = shard::wait_until(1'999'000'000'000'000'000, clock);
  EXPECT_TRUE(r.late);
  EXPECT_EQ(r.waited_ns, 0);
  EXPECT_EQ(r.skew_ns, 1'000'000'000'000'000);
  const auto none = shard::wait_until(0, clock);
  EXPECT_FALSE(none.late);
  EXPECT_EQ(none.skew_ns, 0);
}

}  // namespace
}  // namespace servebench
