// Sweep expansion from parsed flags: which flags split lists, grid/zip/scenario cells, cell
// configs equal to the same flags typed singly, seeds, and one-line errors.
#include "experiment/sweep.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli_options.h"
#include "experiment/experiment.h"

namespace servebench::experiment {
namespace {

Result<config::ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"profile", "-m", "m", "--tokenizer", "builtin"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

std::vector<std::string> labels(const std::vector<Cell>& cells) {
  std::vector<std::string> out;
  for (const auto& c : cells) out.push_back(c.label);
  return out;
}

TEST(SweepParse, OnlySweepableFlagsSplit) {
  auto p = parse({"--concurrency", "1,2,4"});
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->sweep.size(), 1u);
  EXPECT_EQ(p->sweep[0].name, "concurrency");
  EXPECT_EQ(p->sweep[0].values, (std::vector<std::string>{"1", "2", "4"}));
  EXPECT_EQ(p->config.concurrency, 1);  // the first value validates the base
  EXPECT_TRUE(is_experiment(*p));
  // Not sweepable: the flag's own single-value error.
  auto bad = parse({"--num-dataset-entries", "1,2"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--num-dataset-entries"), std::string::npos);
  // Every value of a list must convert.
  auto bad_item = parse({"--concurrency", "1,x"});
  ASSERT_FALSE(bad_item);
  EXPECT_NE(bad_item.error().message.find("--concurrency 'x'"), std::string::npos)
      << bad_item.error().message;
  auto empty_item = parse({"--request-rate", "1,,2"});
  ASSERT_FALSE(empty_item);
  EXPECT_NE(empty_item.error().message.find("empty item"), std::string::npos);
  auto single = parse({"--concurrency", "3"});
  ASSERT_TRUE(single);
  EXPECT_FALSE(is_experiment(*single));
}

TEST(SweepExpand, GridIsEveryCombination) {
  auto p = parse({"--concurrency", "1,2", "--isl", "64,128,256"});
  ASSERT_TRUE(p);
  auto cells = expand_sweep(p->sweep, p->config.experiment);
  ASSERT_TRUE(cells);
  EXPECT_EQ(labels(*cells),
            (std::vector<std::string>{"isl_64_concurrency_1", "isl_64_concurrency_2",
                                      "isl_128_concurrency_1", "isl_128_concurrency_2",
                                      "isl_256_concurrency_1", "isl_256_concurrency_2"}));
  EXPECT_EQ(variation_dir((*cells)[3]), "variation_0003_isl_128_concurrency_2");
}

TEST(SweepExpand, ZipPairsAndChecksLengths) {
  auto p = parse({"--concurrency", "1,2,8", "--isl", "64,128,256", "--sweep-type", "zip"});
  ASSERT_TRUE(p);
  auto cells = expand_sweep(p->sweep, p->config.experiment);
  ASSERT_TRUE(cells);
  EXPECT_EQ(labels(*cells), (std::vector<std::string>{"isl_64_concurrency_1",
                                                      "isl_128_concurrency_2",
                                                      "isl_256_concurrency_8"}));
  auto q = parse({"--concurrency", "1,2", "--isl", "64,128,256", "--sweep-type", "zip"});
  ASSERT_TRUE(q);
  auto bad = expand_sweep(q->sweep, q->config.experiment);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("equal length"), std::string::npos);
}

TEST(SweepExpand, CellConfigEqualsSingleFlags) {
  auto p = parse({"--concurrency", "1,6", "--osl", "20,30", "--request-count", "9"});
  ASSERT_TRUE(p);
  auto cells = expand_sweep(p->sweep, p->config.experiment);
  ASSERT_TRUE(cells);
  auto c = cell_config(p->config, (*cells)[3]);
  ASSERT_TRUE(c) << c.error().message;
  auto single = parse({"--concurrency", "6", "--osl", "30", "--request-count", "9"});
  ASSERT_TRUE(single);
  c->cli_command = single->config.cli_command;  // the command line itself differs
  EXPECT_EQ(config::to_json(*c), config::to_json(single->config));
}

TEST(SweepExpand, Scenarios) {
  auto p = parse({"--sweep-scenarios",
                  R"([{"name":"small","concurrency":2,"isl":32},{"--request-rate":5.5,"streaming":true}])"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(is_experiment(*p));
  auto cells = expand_sweep(p->sweep, p->config.experiment);
  ASSERT_TRUE(cells) << cells.error().message;
  ASSERT_EQ(cells->size(), 2u);
  EXPECT_EQ((*cells)[0].label, "small");
  auto c0 = cell_config(p->config, (*cells)[0]);
  ASSERT_TRUE(c0);
  EXPECT_EQ(c0->concurrency, 2);
  EXPECT_DOUBLE_EQ(c0->isl_mean_tokens, 32);
  auto c1 = cell_config(p->config, (*cells)[1]);
  ASSERT_TRUE(c1) << c1.error().message;
  EXPECT_DOUBLE_EQ(*c1->request_rate, 5.5);
  EXPECT_TRUE(c1->streaming);

  auto unknown = parse({"--sweep-scenarios", R"([{"concurency":2}])"});
  ASSERT_TRUE(unknown);
  auto bad = expand_sweep(unknown->sweep, unknown->config.experiment);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'concurency'"), std::string::npos);
  EXPECT_FALSE(parse({"--sweep-scenarios", "{}"}));
  auto mixed = parse({"--sweep-scenarios", R"([{"concurrency":2}])", "--isl", "1,2"});
  ASSERT_TRUE(mixed);
  EXPECT_FALSE(expand_sweep(mixed->sweep, mixed->config.experiment));
}

TEST(SweepExpand, InvalidCellIsUsageError) {
  // --prefill-concurrency needs --streaming: the cell says which one failed.
  auto p = parse({"--concurrency", "4", "--sweep-scenarios", R"([{"prefill_concurrency":2}])"});
  ASSERT_TRUE(p);
  auto plan = plan_experiment(*p);
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(plan.error().message.find("sweep cell 'prefill_concurrency_2'"), std::string::npos)
      << plan.error().message;
}

TEST(TrialSeed, Policies) {
  auto p = parse({"--concurrency", "1,2", "--random-seed", "100"});
  ASSERT_TRUE(p);
  auto cells = expand_sweep(p->sweep, p->config.experiment);
  ASSERT_TRUE(cells);
  EXPECT_EQ(trial_seed(p->config, (*cells)[0], 1, true), 100u);
  EXPECT_EQ(trial_seed(p->config, (*cells)[1], 1, true), 101u);
  EXPECT_EQ(trial_seed(p->config, (*cells)[1], 3, true), 101u);
  config::BenchmarkConfig same = p->config;
  same.experiment.sweep_same_seed = true;
  same.experiment.vary_seed_per_trial = true;
  EXPECT_EQ(trial_seed(same, (*cells)[1], 3, true), 102u);
  config::BenchmarkConfig unset = p->config;
  unset.random_seed.reset();
  EXPECT_EQ(trial_seed(unset, (*cells)[0], 1, true), 42u);
  unset.experiment.set_consistent_seed = false;
  EXPECT_FALSE(trial_seed(unset, (*cells)[0], 1, true));
}

TEST(ExperimentFlags, RangesAndChoices) {
  EXPECT_FALSE(parse({"--num-profile-runs", "11"}));
  EXPECT_FALSE(parse({"--num-profile-runs", "0"}));
  EXPECT_FALSE(parse({"--confidence-level", "1"}));
  EXPECT_FALSE(parse({"--sweep-type", "random"}));
  EXPECT_FALSE(parse({"--convergence-mode", "ks"}));
  auto p = parse({"--num-profile-runs", "4", "--confidence-level", "0.9",
                  "--no-set-consistent-seed", "--parameter-sweep-mode", "independent",
                  "--profile-run-cooldown-seconds", "1.5"});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->config.experiment.num_profile_runs, 4);
  EXPECT_DOUBLE_EQ(p->config.experiment.confidence_level, 0.9);
  EXPECT_FALSE(p->config.experiment.set_consistent_seed);
  EXPECT_EQ(p->config.experiment.sweep_order, config::SweepOrder::kIndependent);
  EXPECT_EQ(p->config.experiment.profile_run_cooldown_ns, 1'500'000'000);
  EXPECT_TRUE(is_experiment(*p));
}

}  // namespace
}  // namespace servebench::experiment
