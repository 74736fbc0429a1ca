// --goodput / --fail-on parsers on random input: never crash, and every accepted condition is
// well formed (known tag, known stat, finite threshold). Complements the exact cases in
// summary_test.cc.
#include "metrics/slo.h"

#include <cmath>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "metrics/stats.h"

namespace servebench::metrics {
namespace {

std::string random_text(std::mt19937_64& rng) {
  static const std::string kPieces[] = {
      "time_to_first_token", "request_error_rate", "inter_token_latency", ".", ":", "=", ">",
      ">=", "<", "<=", "p99", "avg", "p98", " ", ",", "1", "0.5", "-3", "1e308", "1e999", "nan",
      "inf", "abc", "\t", "schedule_lag", "adj_request_latency", "output_token_throughput_per_user"};
  std::string out;
  const int n = static_cast<int>(rng() % 8);
  for (int i = 0; i < n; ++i) out += kPieces[rng() % std::size(kPieces)];
  return out;
}

TEST(SloTest, RandomInputNeverCrashesAndAcceptedConditionsAreWellFormed) {
  std::mt19937_64 rng(123);
  int accepted_goodput = 0, accepted_gates = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = random_text(rng);
    if (auto g = parse_goodput(text)) {
      for (const Slo& s : *g) {
        ASSERT_NE(s.info, nullptr) << text;
        EXPECT_EQ(s.info->kind, MetricKind::kRecord) << text;
        EXPECT_TRUE(std::isfinite(s.threshold_base)) << text;
        EXPECT_GE(s.threshold_display, 0) << text;
        ++accepted_goodput;
      }
    } else {
      EXPECT_TRUE(g.error().is_usage()) << text;
    }
    if (auto f = parse_fail_on(text)) {
      for (const Gate& gate : *f) {
        EXPECT_TRUE(is_stat_name(gate.stat.c_str())) << text;
        EXPECT_TRUE(std::isfinite(gate.threshold)) << text;
        EXPECT_FALSE(gate.tag.empty()) << text;
        ++accepted_gates;
      }
    } else {
      EXPECT_TRUE(f.error().is_usage()) << text;
      EXPECT_EQ(f.error().message.find('\n'), std::string::npos) << "one line";
    }
  }
  EXPECT_GT(accepted_goodput, 0);
  EXPECT_GT(accepted_gates, 0);
}

}  // namespace
}  // namespace servebench::metrics
