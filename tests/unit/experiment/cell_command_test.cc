// The single-run command of each trial of an experiment (experiment/cell_command.h): parsing it
// gives the trial's configuration; loop flags, secrets and skipped warm-ups are left out.
#include "experiment/cell_command.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/cli_options.h"
#include "core/secrets.h"
#include "experiment/experiment.h"

namespace servebench::experiment {
namespace {

using nlohmann::json;

Result<config::ParsedArgs> parse_argv(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

Result<config::ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"profile", "-m", "m", "--tokenizer", "builtin"});
  return parse_argv(args);
}

// What a run does, without where it writes and how it was typed.
json run_json(config::BenchmarkConfig c, bool drop_warmup) {
  c.artifact_dir = "artifacts";
  json j = json::parse(config::to_json(c));
  j.erase("cli_command");
  if (drop_warmup)
    for (auto it = j["loadgen"].begin(); it != j["loadgen"].end();)
      it = it.key().find("warmup") != std::string::npos ? j["loadgen"].erase(it) : std::next(it);
  return j;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

class CellCommand : public ::testing::Test {
 protected:
  void SetUp() override { core::secrets::clear_for_testing(); }
  void TearDown() override { core::secrets::clear_for_testing(); }
};

TEST_F(CellCommand, EveryTrialReparsesToItsConfig) {
  auto p = parse({"--api-key", "sk-secret-123", "--concurrency=1,4", "--isl", "64,128", "--streaming",
                  "--num-profile-runs", "2", "--vary-seed-per-trial", "--random-seed", "7",
                  "--warmup-request-count", "3", "--warmup-concurrency", "2", "--sweep-type", "zip",
                  "--profile-run-cooldown-seconds", "0"});
  ASSERT_TRUE(p) << p.error().message;
  auto plan = plan_experiment(*p);
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->cells.size(), 2u);
  int checked = 0;
  for (const auto& cp : plan->cells) {
    for (int64_t trial = 1; trial <= 2; ++trial) {
      const config::BenchmarkConfig cfg = trial_config(*plan, cp, "/tmp/x", trial);
      const auto argv = trial_argv(plan->argv, cp.cell, cfg.random_seed, trial > 1);
      for (const char* loop : {"--num-profile-runs", "--vary-seed-per-trial", "--sweep-type",
                               "--profile-run-cooldown-seconds"})
        EXPECT_FALSE(has(argv, loop)) << loop;
      EXPECT_EQ(has(argv, "--warmup-request-count"), trial == 1);
      auto again = parse_argv(argv);
      ASSERT_TRUE(again) << again.error().message;
      EXPECT_FALSE(is_experiment(*again)) << "one run";
      EXPECT_EQ(again->config.random_seed, cfg.random_seed);
      EXPECT_EQ(again->config.concurrency, cfg.concurrency);
      EXPECT_EQ(run_json(again->config, trial > 1), run_json(cfg, trial > 1))
          << cp.cell.label << " trial " << trial;
      if (trial > 1) {
        EXPECT_FALSE(again->config.warmup_request_count.has_value());
      }
      // The recorded line: redacted, the cell's values, the trial's seed.
      EXPECT_EQ(cfg.cli_command.find("sk-secret-123"), std::string::npos) << cfg.cli_command;
      EXPECT_NE(cfg.cli_command.find("--api-key '<redacted>'"), std::string::npos)
          << cfg.cli_command;
      const uint64_t seed = 7 + static_cast<uint64_t>(cp.cell.index) + (trial - 1);
      EXPECT_NE(cfg.cli_command.find("--random-seed " + std::to_string(seed)), std::string::npos)
          << cfg.cli_command;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4);
  const auto last = trial_config(*plan, plan->cells[1], "/tmp/x", 2);
  EXPECT_EQ(last.cli_command.rfind("servebench profile -m m", 0), 0u) << last.cli_command;
  EXPECT_NE(last.cli_command.find("--isl 128 --concurrency 4 --random-seed 9"), std::string::npos)
      << last.cli_command;
}

TEST_F(CellCommand, ScenariosSetSwitchesBothWays) {
  auto p = parse({"--streaming", "--isl", "100", "-H", "X-A: 1", "--sweep-scenarios",
                  R"([{"name":"a","isl":64,"streaming":false},)"
                  R"({"concurrency":3,"streaming":true,"header":["X-B: 2"]}])"});
  ASSERT_TRUE(p) << p.error().message;
  auto plan = plan_experiment(*p);
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->cells.size(), 2u);
  for (const auto& cp : plan->cells) {
    const config::BenchmarkConfig cfg = trial_config(*plan, cp, "/tmp/x", 1);
    const auto argv = trial_argv(plan->argv, cp.cell, cfg.random_seed, false);
    EXPECT_FALSE(has(argv, "--sweep-scenarios"));
    auto again = parse_argv(argv);
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(run_json(again->config, false), run_json(cfg, false)) << cp.cell.label;
  }
  const auto a = trial_argv(plan->argv, plan->cells[0].cell, 42, false);
  EXPECT_TRUE(has(a, "--no-streaming"));
  EXPECT_FALSE(has(a, "100")) << "the scenario's isl replaces the base value";
  const auto b = parse_argv(trial_argv(plan->argv, plan->cells[1].cell, 43, false));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->config.headers.size(), 2u) << "a list flag keeps its other values";
  EXPECT_TRUE(b->config.streaming);
}

TEST_F(CellCommand, UnseededRunsKeepNoSeed) {
  auto p = parse({"--num-profile-runs", "2", "--no-set-consistent-seed", "--concurrency", "2"});
  ASSERT_TRUE(p) << p.error().message;
  auto plan = plan_experiment(*p);
  ASSERT_TRUE(plan) << plan.error().message;
  const auto cfg = trial_config(*plan, plan->cells[0], "/tmp/x", 1);
  EXPECT_FALSE(cfg.random_seed.has_value());
  EXPECT_EQ(cfg.cli_command.find("--random-seed"), std::string::npos) << cfg.cli_command;
  EXPECT_EQ(cfg.cli_command.find("set-consistent-seed"), std::string::npos) << cfg.cli_command;
  EXPECT_NE(cfg.cli_command.find("--concurrency 2"), std::string::npos) << cfg.cli_command;
}

TEST_F(CellCommand, AggregateAndSweepRecordTheCommand) {
  Trial t1;
  t1.label = "run_0001";
  t1.ok = true;
  t1.cli_command = "servebench profile -m m --random-seed 42";
  t1.metrics.values["request_throughput_avg"] = 10;
  t1.metrics.units["request_throughput_avg"] = "requests/sec";
  Trial t2 = t1;
  t2.label = "run_0002";
  t2.cli_command = "servebench profile -m m --random-seed 43";
  const json agg = json::parse(aggregate_json({t1, t2}, 2, 0.95));
  EXPECT_EQ(agg["metadata"]["cli_command"], t1.cli_command);
  EXPECT_EQ(agg["metadata"]["cli_commands"], json::array({t1.cli_command, t2.cli_command}));
}

}  // namespace
}  // namespace servebench::experiment
