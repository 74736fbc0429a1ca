// The search planners, SLA kinds and recipe grids (experiment/search_plan.h) against
// servebench-mock. The mock with --max-concurrency 5 generates at most 5 requests at once and
// queues the rest, so TTFT stays near its 40 ms up to concurrency 5, while from 6 on the first
// wave's extra requests wait a whole generation (40 + 40 x 2 ms) first: the capacity under TTFT
// p99 <= 80 ms (the slowest of 30 requests, twice the injected TTFT) is 5.
#include <gtest/gtest.h>

#include <algorithm>

#include "profile/harness.h"

namespace servebench::itest {
namespace {

const std::vector<std::string> kKneeMock = {"--ttft-ms",         "40", "--itl-ms", "2",
                                            "--max-concurrency", "5"};
const std::string kKneeSla = "time_to_first_token:p99:lt:80";

std::vector<std::string> search_cmd(const Server& s, const std::string& art,
                                    std::vector<std::string> extra, const char* requests = "30") {
  std::vector<std::string> argv = {bin_dir() + "/servebench",
                                   "search",
                                   "-m",
                                   "mock-model",
                                   "--url",
                                   s.url(),
                                   "--streaming",
                                   "--tokenizer",
                                   "builtin",
                                   "--osl",
                                   "40",
                                   "--request-count",
                                   requests,
                                   "--artifact-dir",
                                   art,
                                   "-q"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

Json history_in(const std::string& art, const std::string& over = "concurrency") {
  return Json::parse(
      read_file(art + "/mock-model-openai-chat-search_" + over + "/search_history.json"));
}

TEST(SearchPlanIntegration, SmoothIsotonicFindsTheKnee) {
  Server mock;
  ASSERT_TRUE(mock.start_mock(kKneeMock));
  const std::string dir = make_temp_dir("iso"), art = dir + "/art";
  const Proc p = run_process(
      dir, search_cmd(mock, art,
                      {"--search-recipe", "max-concurrency-under-sla", "--search-style",
                       "smooth_isotonic", "--search-sla", kKneeSla, "--concurrency-max", "32"}));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Json h = history_in(art);
  EXPECT_EQ(h["search"]["planner"], "smooth_isotonic");
  EXPECT_EQ(h["result"]["answer"], 5) << h.dump(1);
  EXPECT_EQ(h["result"]["first_fail"], 6);
}

TEST(SearchPlanIntegration, ErrorRateSla) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1", "--error-rate", "30"}));
  const std::string dir = make_temp_dir("err"), art = dir + "/art";
  // 30% errors: a 5% budget fails at the first probe, a 60% budget holds up to the maximum.
  Proc p = run_process(dir, search_cmd(mock, art,
                                       {"--search-recipe", "max-concurrency-under-sla",
                                        "--error-rate-sla", "0.05", "--concurrency-max", "4"}));
  EXPECT_EQ(p.exit_code, 1) << p.err;
  Json h = history_in(art);
  ASSERT_EQ(h["history"].size(), 1u) << h.dump(1);
  EXPECT_EQ(h["slos"][0]["key"], "request_error_rate_avg");
  EXPECT_DOUBLE_EQ(h["slos"][0]["threshold"].get<double>(), 5);
  EXPECT_GT(h["history"][0]["metrics"]["request_error_rate_avg"].get<double>(), 10);
  const std::string art2 = dir + "/art2";
  p = run_process(dir, search_cmd(mock, art2,
                                  {"--search-recipe", "max-concurrency-under-sla",
                                   "--error-rate-sla", "0.6", "--concurrency-max", "4"}));
  EXPECT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(history_in(art2)["result"]["answer"], 4);
}

TEST(SearchPlanIntegration, GoodputRecipeJudgesPerRequestAttainment) {
  Server mock;
  ASSERT_TRUE(mock.start_mock(kKneeMock));
  const std::string dir = make_temp_dir("goodput"), art = dir + "/art";
  const Proc p = run_process(
      dir, search_cmd(mock, art,
                      {"--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "80",
                       "--slo-attainment-fraction", "0.99", "--concurrency-max", "16"}));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Json h = history_in(art);
  EXPECT_EQ(h["slos"][0]["key"], "good_request_fraction_avg");
  EXPECT_EQ(h["search"]["per_request_slos"], "time_to_first_token:80");
  EXPECT_EQ(h["result"]["answer"], 5) << h.dump(1);
  for (const auto& s : h["history"]) {
    const double f = s["metrics"]["good_request_fraction_avg"].get<double>();
    EXPECT_EQ(s["pass"].get<bool>(), f >= 0.99) << s.dump();
  }
}

TEST(SearchPlanIntegration, BayesianThroughProfileFlags) {
  Server mock;
  ASSERT_TRUE(mock.start_mock(kKneeMock));
  const std::string dir = make_temp_dir("bo"), art = dir + "/art";
  const Proc p = run_process(dir, {bin_dir() + "/servebench",
                                   "profile",
                                   "--search-space",
                                   "concurrency:1,12:int",
                                   "--search-metric",
                                   "request_throughput",
                                   "--search-direction",
                                   "maximize",
                                   "--search-sla",
                                   kKneeSla,
                                   "--search-max-iterations",
                                   "7",
                                   "--search-initial-points",
                                   "3",
                                   "--search-random-seed",
                                   "11",
                                   "--optuna-sampler",
                                   "tpe",
                                   "-m",
                                   "mock-model",
                                   "--url",
                                   mock.url(),
                                   "--streaming",
                                   "--tokenizer",
                                   "builtin",
                                   "--osl",
                                   "40",
                                   "--request-count",
                                   "30",
                                   "--artifact-dir",
                                   art,
                                   "-q"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.err.find("note: --optuna-sampler tpe"), std::string::npos) << p.err;
  const Json h = history_in(art);
  EXPECT_EQ(h["search"]["planner"], "bayesian");
  EXPECT_EQ(h["search"]["random_seed"], 11);
  EXPECT_LE(h["history"].size(), 7u);
  const int answer = h["result"]["answer"].get<int>();
  EXPECT_GE(answer, 4) << h.dump(1);
  EXPECT_LE(answer, 5) << h.dump(1);
}

TEST(SearchPlanIntegration, SlaTiersShareProbes) {
  Server mock;
  ASSERT_TRUE(mock.start_mock(kKneeMock));
  const std::string dir = make_temp_dir("tiers"), art = dir + "/art";
  const Proc p = run_process(
      dir, search_cmd(mock, art,
                      {"--search-recipe", "max-concurrency-under-sla", "--concurrency-max", "16",
                       "--search-sla-tier", "fast:" + kKneeSla, "--search-sla-tier",
                       "time_to_first_token:p99:lt:10000"}));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Json h = history_in(art);
  ASSERT_EQ(h["tiers"].size(), 2u);
  EXPECT_EQ(h["tiers"][0]["tier"], "fast");
  EXPECT_EQ(h["tiers"][1]["tier"], "tier_2");
  EXPECT_EQ(h["tiers"][0]["result"]["answer"], 5) << h.dump(1);
  EXPECT_EQ(h["tiers"][1]["result"]["answer"], 16);
  // The second tier re-judges the first tier's probes instead of running them again.
  size_t probes = 0;
  for (const auto& e : fs::directory_iterator(art + "/mock-model-openai-chat-search_concurrency"))
    probes += e.is_directory() ? 1 : 0;
  EXPECT_LT(probes, h["tiers"][0]["history"].size() + h["tiers"][1]["history"].size());
}

TEST(SearchPlanIntegration, ConcurrencyRampDegradationKnee) {
  Server mock;
  ASSERT_TRUE(mock.start_mock(kKneeMock));
  const std::string dir = make_temp_dir("ramp"), art = dir + "/art";
  const Proc p =
      run_process(dir, search_cmd(mock, art,
                                  {"--search-recipe", "concurrency-ramp", "--concurrency-min", "1",
                                   "--concurrency-max", "16", "--concurrency-steps", "5",
                                   "--degradation-threshold", "0.9", "--degradation-metric-tag",
                                   "time_to_first_token", "--degradation-stat", "p99"}));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Json k = Json::parse(
      read_file(art + "/mock-model-openai-chat-search_concurrency/degradation_knee.json"));
  EXPECT_EQ(k["baseline_concurrency"], 1);
  EXPECT_EQ(k["knee_concurrency"], 8) << k.dump(1);
  ASSERT_EQ(k["all_points"].size(), 5u);
}

TEST(SearchPlanIntegration, PrefillCurveAndParetoSweep) {
  Server mock;
  ASSERT_TRUE(
      mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1", "--prefill-us-per-token", "100"}));
  const std::string dir = make_temp_dir("curves"), art = dir + "/art";
  Proc p = run_process(dir, search_cmd(mock, art,
                                       {"--search-recipe", "prefill-ttft-curve", "--isl-min", "128",
                                        "--isl-max", "2048", "--isl-steps", "4"},
                                       "8"));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Json c =
      Json::parse(read_file(art + "/mock-model-openai-chat-search_isl/prefill_curve.json"));
  EXPECT_EQ(c["fit_form"], "linear") << c.dump(1);
  EXPECT_NEAR(c["coefficients"][0].get<double>(), 0.1, 0.03);  // 100 us per prompt token
  EXPECT_GT(c["r_squared"].get<double>(), 0.95);
  const std::string art2 = dir + "/art2";
  p = run_process(dir, search_cmd(mock, art2,
                                  {"--search-recipe", "pareto-sweep", "--isl-osl-pairs",
                                   "64/16, 512/32", "--concurrency", "1,4"},
                                  "8"));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const Json ps =
      Json::parse(read_file(art2 + "/mock-model-openai-chat-search_isl/pareto_sweep.json"));
  ASSERT_EQ(ps["cells"].size(), 4u);
  EXPECT_EQ(ps["cells"][3]["isl"], 512);
  EXPECT_EQ(ps["cells"][3]["concurrency"], 4);
  EXPECT_TRUE(std::any_of(ps["cells"].begin(), ps["cells"].end(),
                          [](const Json& x) { return x["pareto_optimal"].get<bool>(); }));
}

TEST(SearchPlanIntegration, BadFlagsAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("bad");
  const std::vector<std::vector<std::string>> cases = {
      {"--search-space", "temperature:0,1"},
      {"--search-style", "grid", "--slo", "time_to_first_token:p99<=40ms", "--over", "concurrency"},
      {"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "128"},
      {"--search-recipe", "max-concurrency-under-sla", "--search-sla-tier",
       "time_to_first_token:p99:lt:4"},
      {"--search-recipe", "max-concurrency-under-sla", "--error-rate-sla", "2"},
      {"--search-space", "concurrency:1,8:int", "--search-direction", "maximize"},
      {"--search-recipe", "concurrency-ramp", "--search-space", "concurrency:1,8:int"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {
        bin_dir() + "/servebench", "search",      "-m",     "m", "--url",
        "http://127.0.0.1:9",      "--tokenizer", "builtin"};
    argv.insert(argv.end(), c.begin(), c.end());
    const Proc p = run_process(dir, argv);
    EXPECT_EQ(p.exit_code, 2) << c[0] << ": " << p.err;
    EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
  }
}

}  // namespace
}  // namespace servebench::itest
