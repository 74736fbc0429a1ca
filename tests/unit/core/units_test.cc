#include "core/units.h"

#include <gtest/gtest.h>

namespace servebench::core {
namespace {

TEST(Units, ParsesDurations) {
  EXPECT_EQ(*parse_duration_ns("10s"), 10 * kNsPerSec);
  EXPECT_EQ(*parse_duration_ns("250ms"), 250 * kNsPerMs);
  EXPECT_EQ(*parse_duration_ns("100us"), 100 * kNsPerUs);
  EXPECT_EQ(*parse_duration_ns("1.5m"), 90 * kNsPerSec);
  EXPECT_EQ(*parse_duration_ns("2h"), 7200 * kNsPerSec);
  EXPECT_EQ(*parse_duration_ns("7ns"), 7);
  EXPECT_EQ(*parse_duration_ns("2.5"), 2500 * kNsPerMs);
  EXPECT_EQ(*parse_duration_ns("3", DurationUnit::kMilliseconds), 3 * kNsPerMs);
}

TEST(Units, RejectsBadDurations) {
  EXPECT_FALSE(parse_duration_ns(""));
  EXPECT_FALSE(parse_duration_ns("abc"));
  EXPECT_FALSE(parse_duration_ns("10x"));
  EXPECT_FALSE(parse_duration_ns("-1s"));
  EXPECT_FALSE(parse_duration_ns("inf"));
  EXPECT_FALSE(parse_duration_ns("nan"));
  EXPECT_FALSE(parse_duration_ns(" 1s"));
  auto e = parse_duration_ns("10 parsecs");
  ASSERT_FALSE(e);
  EXPECT_TRUE(e.error().is_usage());
  EXPECT_NE(e.error().message.find("10 parsecs"), std::string::npos);
}

TEST(Units, ParsesCounts) {
  EXPECT_EQ(*parse_count("100"), 100);
  // Integers beyond 2^53 are exact (a random seed must read back digit for digit).
  EXPECT_EQ(*parse_count("698022635093367798"), 698022635093367798);
  EXPECT_NE(*parse_count("698022635093367798"), *parse_count("698022635093367808"));
  EXPECT_EQ(*parse_count("6980226350933677986"), 6980226350933677986);
  EXPECT_FALSE(parse_count("99999999999999999999"));
  EXPECT_EQ(*parse_count("10k"), 10000);
  EXPECT_EQ(*parse_count("1.5M"), 1500000);
  EXPECT_EQ(*parse_count("2G"), 2000000000);
  EXPECT_FALSE(parse_count("1.5"));
  EXPECT_FALSE(parse_count("-3"));
  EXPECT_FALSE(parse_count("3q"));
  EXPECT_FALSE(parse_count("1e30"));
}

TEST(Units, ParsesDoubles) {
  EXPECT_DOUBLE_EQ(*parse_double("2.5"), 2.5);
  EXPECT_DOUBLE_EQ(*parse_double("-1e3"), -1000.0);
  EXPECT_FALSE(parse_double("2.5x"));
  EXPECT_FALSE(parse_double("nan"));
}

TEST(Units, FormatsDurations) {
  EXPECT_EQ(format_duration(500), "500 ns");
  EXPECT_EQ(format_duration(1500), "1.5 \xC2\xB5s");
  EXPECT_EQ(format_duration(2'500'000), "2.50 ms");
  EXPECT_EQ(format_duration(3'000'000'000), "3.00 s");
}

TEST(Units, Conversions) {
  EXPECT_DOUBLE_EQ(ns_to_ms(1'500'000), 1.5);
  EXPECT_EQ(ms_to_ns(1.5), 1'500'000);
  EXPECT_EQ(sec_to_ns(0.25), 250'000'000);
  EXPECT_EQ(us_to_ns(2.5), 2'500);
  EXPECT_DOUBLE_EQ(ns_to_us(1'500), 1.5);
  EXPECT_EQ(ms_to_ns(-1.5), -1'500'000);
  EXPECT_EQ(ms_to_ns_or_absent(-0.001), -1) << "negative means absent";
  EXPECT_EQ(ms_to_ns_or_absent(0), 0);
  EXPECT_EQ(ms_to_ns_or_absent(2.0000004), 2'000'000);
}

TEST(Units, TrimsCLocaleWhitespace) {
  EXPECT_EQ(trim("  a b \t\r\n"), "a b");
  EXPECT_EQ(trim("\v\fx\f\v"), "x");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("\xC2\xA0x"), "\xC2\xA0x") << "non-ASCII bytes are never whitespace";
}

}  // namespace
}  // namespace servebench::core
