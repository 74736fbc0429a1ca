// --scenario inferencex-agentx-mvp (config/scenario.h): locks filled in, conflicts refused or
// downgraded by --unsafe-override, and the agentic-only flags' own rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "config/cli_options.h"
#include "unit/config/profile_parse.h"
#include "config/scenario.h"

namespace servebench::config {
namespace {

using profile_test::Args;
using profile_test::expect_error;
using profile_test::parse;

const Args kScenario{"--scenario", "inferencex-agentx-mvp", "--input-file", "traces/"};

Args with(Args more) {
  Args a = kScenario;
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(Scenario, LocksFillUnsetOptions) {
  auto r = parse(kScenario);
  ASSERT_TRUE(r) << r.error().message;
  const BenchmarkConfig& c = r->config;
  EXPECT_TRUE(c.agentic.replay);
  EXPECT_TRUE(c.streaming);
  EXPECT_EQ(c.cache_bust, CacheBust::kFirstTurnPrefix);
  EXPECT_NE(c.extra_inputs_json.find("\"ignore_eos\":true"), std::string::npos) << c.extra_inputs_json;
  EXPECT_EQ(c.agentic.system_idle_gap_cap_s, 10.0);
  EXPECT_EQ(c.benchmark_duration_ns, 1800LL * 1'000'000'000);
  ASSERT_TRUE(c.agentic.outcome);
  EXPECT_TRUE(c.agentic.outcome->submission_valid);
  EXPECT_TRUE(c.agentic.outcome->violations.empty());
  EXPECT_EQ(c.agentic.outcome->applied_locks.front(), "timing_mode");
  EXPECT_EQ(c.agentic.min_ratio(), 0.25);
  EXPECT_EQ(c.agentic.max_ratio(), 0.75);
}

TEST(Scenario, MatchingValuesKeepTheRunValid) {
  auto r = parse(with({"--cache-bust", "first_turn_prefix", "--benchmark-duration", "900", "--extra-inputs",
                       "ignore_eos:true", "--system-idle-gap-cap-seconds", "10", "--concurrency", "4"}));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->config.agentic.outcome->submission_valid);
  EXPECT_EQ(r->config.benchmark_duration_ns, 900LL * 1'000'000'000);
}

TEST(Scenario, ConflictsAreOneErrorNamingEachFlag) {
  expect_error(with({"--cache-bust", "system_prefix"}), "--cache-bust system_prefix");
  expect_error(with({"--benchmark-duration", "60"}), "at least 900");
  expect_error(with({"--request-rate", "3"}), "--request-rate 3");
  expect_error(with({"--extra-inputs", "ignore_eos:false"}), "ignore_eos");
  expect_error(with({"--trace-idle-gap-cap-seconds", "60"}), "--trace-idle-gap-cap-seconds");
  expect_error(with({"--inter-turn-delay-cap-seconds", "5"}), "--inter-turn-delay-cap-seconds");
  expect_error(with({"--system-idle-gap-cap-seconds", "30"}), "--system-idle-gap-cap-seconds 30");
  expect_error(with({"--ignore-trace-delays"}), "--ignore-trace-delays");
  expect_error(with({"--benchmark-duration", "60", "--request-rate", "3"}), "--unsafe-override");
  expect_error({"--scenario", "inferencex-agentx-mvp"}, "--input-file");
  expect_error({"--scenario", "nope"}, "inferencex-agentx-mvp");
}

TEST(Scenario, UnsafeOverrideDowngradesConflictsAndMarksTheRunInvalid) {
  auto r = parse(with({"--unsafe-override", "--benchmark-duration", "5", "--cache-bust", "system_prefix"}));
  ASSERT_TRUE(r) << r.error().message;
  const ScenarioOutcome& o = *r->config.agentic.outcome;
  EXPECT_FALSE(o.submission_valid);
  ASSERT_EQ(o.violations.size(), 2u);
  EXPECT_EQ(o.invalid_reasons, std::vector<std::string>{"unsafe_override"});
  EXPECT_EQ(r->config.benchmark_duration_ns, 5LL * 1'000'000'000);  // the user's value runs
  EXPECT_EQ(r->config.cache_bust, CacheBust::kSystemPrefix);
}

TEST(Scenario, AgenticOnlyFlagsNeedTheScenario) {
  expect_error({"--trajectory-start-min-ratio", "0.1"}, "--scenario inferencex-agentx-mvp");
  expect_error({"--burst-phase-starts"}, "applies only to agentic replay");
  expect_error({"--unsafe-override"}, "--unsafe-override");
  expect_error({"--allow-dataset-wrap"}, "--allow-dataset-wrap");
  expect_error({"--agentic-warmup-grace-period", "5"}, "--agentic-warmup-grace-period");
  expect_error({"--system-idle-gap-cap-seconds", "5"}, "--system-idle-gap-cap-seconds");
}

TEST(Scenario, AgenticOptionValues) {
  auto r = parse(with({"--trajectory-start-min-ratio", "0.1", "--trajectory-start-max-ratio", "0.3",
                       "--burst-phase-starts", "--allow-dataset-wrap", "--agentic-warmup-grace-period", "7"}));
  ASSERT_TRUE(r) << r.error().message;
  const AgenticOptions& a = r->config.agentic;
  EXPECT_EQ(a.min_ratio(), 0.1);
  EXPECT_EQ(a.max_ratio(), 0.3);
  EXPECT_TRUE(a.burst_phase_starts);
  EXPECT_TRUE(a.allow_dataset_wrap.value_or(false));
  EXPECT_EQ(a.warmup_grace_ns, 7LL * 1'000'000'000);
  expect_error(with({"--trajectory-start-min-ratio", "0.8", "--trajectory-start-max-ratio", "0.3"}), "swap them");
  expect_error(with({"--trajectory-start-max-ratio", "1.5"}), "[0, 1]");
  expect_error(with({"--allow-dataset-wrap", "--no-allow-dataset-wrap"}), "contradict");
  expect_error({"--ignore-trace-delays"}, "needs --input-file");
  expect_error({"--ignore-trace-delays", "--use-think-time-only", "--input-file", "t.json"}, "contradict");
  auto plain = parse({"--ignore-trace-delays", "--input-file", "t.json", "--trace-idle-gap-cap-seconds", "30"});
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_TRUE(plain->config.agentic.ignore_trace_delays);
  EXPECT_EQ(plain->config.agentic.trace_idle_gap_cap_s, 30.0);
  EXPECT_FALSE(plain->config.agentic.replay);
}

}  // namespace
}  // namespace servebench::config
