// Trace replay flags (flags_trace_replay.cc): defaults, values, bounds, the on/off pairs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "config/cli_options.h"
#include "unit/config/profile_parse.h"

namespace servebench::config {
namespace {

using profile_test::Args;
using profile_test::expect_error;
using profile_test::parse;

TEST(TraceReplayOptions, DefaultsFollowAiperf) {
  auto r = parse({});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  const BenchmarkConfig& c = r->config;
  EXPECT_TRUE(c.open_loop_replay.value_or(true));
  EXPECT_TRUE(c.force_min_tokens.value_or(true));
  EXPECT_FALSE(c.open_loop_strict);
  EXPECT_FALSE(c.omit_kv_hints);
  EXPECT_EQ(c.replay_speedup, 1.0);
  EXPECT_EQ(c.trace_session_sample_ratio, 1.0);
  EXPECT_FALSE(c.inter_turn_delay_cap_s.has_value());
  EXPECT_FALSE(c.max_idle_gap_cap_s.has_value());
}

TEST(TraceReplayOptions, ValuesLandInTheConfig) {
  auto r = parse({"--no-open-loop-replay", "--no-force-min-tokens", "--omit-kv-hints",
                  "--replay-speedup", "2.5", "--trace-session-sample-ratio", "0.25",
                  "--inter-turn-delay-cap-seconds", "3", "--max-idle-gap-cap-seconds", "0.5"});
  ASSERT_TRUE(r.has_value()) << r.error().message;
  const BenchmarkConfig& c = r->config;
  EXPECT_FALSE(c.open_loop_replay.value_or(true));
  EXPECT_FALSE(c.force_min_tokens.value_or(true));
  EXPECT_TRUE(c.omit_kv_hints);
  EXPECT_EQ(c.replay_speedup, 2.5);
  EXPECT_EQ(c.trace_session_sample_ratio, 0.25);
  EXPECT_EQ(c.inter_turn_delay_cap_s.value_or(0), 3.0);
  EXPECT_EQ(c.max_idle_gap_cap_s.value_or(0), 0.5);
  auto strict = parse({"--open-loop-replay", "--open-loop-strict"});
  ASSERT_TRUE(strict.has_value()) << strict.error().message;
  EXPECT_TRUE(strict->config.open_loop_strict);
}

TEST(TraceReplayOptions, BadValuesAreOneLineErrors) {
  expect_error({"--trace-session-sample-ratio", "0"}, "--trace-session-sample-ratio");
  expect_error({"--trace-session-sample-ratio", "1.5"}, "--trace-session-sample-ratio");
  expect_error({"--replay-speedup", "0"}, "--replay-speedup");
  expect_error({"--replay-speedup", "fast"}, "--replay-speedup");
  expect_error({"--max-idle-gap-cap-seconds", "0"}, "--max-idle-gap-cap-seconds");
  expect_error({"--inter-turn-delay-cap-seconds", "-1"}, "--inter-turn-delay-cap-seconds");
  expect_error({"--open-loop-replay", "--no-open-loop-replay"}, "contradict");
  expect_error({"--force-min-tokens", "--no-force-min-tokens"}, "contradict");
}

}  // namespace
}  // namespace servebench::config
