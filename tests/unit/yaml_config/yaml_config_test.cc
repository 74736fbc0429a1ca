#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "yaml_config/cells.h"
#include "yaml_config/templates.h"
#include "yaml_config/yaml_config.h"

namespace servebench::yaml_config {
namespace {

std::string value_of(const LoadedConfig& c, const std::string& flag) {
  for (const auto& a : c.args)
    if (a.flag == flag) return a.has_value ? a.value : "<switch>";
  return "<absent>";
}

TEST(YamlConfig, MinimalBodyMapsToProfileFlags) {
  auto c = load_text(R"(schemaVersion: "2.0"
randomSeed: 7
benchmark:
  model: m1
  endpoint: {url: "http://h:1", type: chat, streaming: true, timeout: 2m}
  dataset: {type: synthetic, entries: 20, prompts: {isl: 64, osl: 16}}
  phases: {type: poisson, rate: 2.5, duration: 30s, concurrency: 4}
  slos: {time_to_first_token: 500}
  artifacts: {dir: out, sliceDuration: 1500ms}
)", "f.yaml");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(value_of(*c, "--random-seed"), "7");
  EXPECT_EQ(value_of(*c, "--model"), "m1");
  EXPECT_EQ(value_of(*c, "--url"), "http://h:1");
  EXPECT_EQ(value_of(*c, "--streaming"), "<switch>");
  EXPECT_EQ(value_of(*c, "--request-timeout-seconds"), "120");
  EXPECT_EQ(value_of(*c, "--isl"), "64");
  EXPECT_EQ(value_of(*c, "--osl"), "16");
  EXPECT_EQ(value_of(*c, "--arrival-pattern"), "poisson");
  EXPECT_EQ(value_of(*c, "--request-rate"), "2.5");
  EXPECT_EQ(value_of(*c, "--benchmark-duration"), "30");
  EXPECT_EQ(value_of(*c, "--concurrency"), "4");
  EXPECT_EQ(value_of(*c, "--goodput"), "time_to_first_token:500");
  EXPECT_EQ(value_of(*c, "--slice-duration"), "1.5");
  EXPECT_EQ(value_of(*c, "--artifact-dir"), "out");
}

TEST(YamlConfig, UnknownKeyNamesFileLineAndSuggestion) {
  auto c = load_text("benchmark:\n  model: m\n  load:\n    concurency: 4\n", "exp.yaml");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message,
            "exp.yaml:4: unknown key 'concurency' under benchmark.load (did you mean 'concurrency'?)");
}

TEST(YamlConfig, TypeErrorNamesFileLine) {
  auto c = load_text("benchmark:\n  phases:\n    type: concurrency\n    concurrency: eight\n", "t.yaml");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("t.yaml:4:"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("'eight'"), std::string::npos);
  auto bad = load_text("benchmark: [\n", "s.yaml");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("s.yaml:", 0), 0u);
}

TEST(YamlConfig, SubstitutesEnvironmentVariablesAndDefaults) {
  setenv("SB_YAML_TEST_MODEL", "from-env", 1);
  auto c = load_text("variables: {conc: 3}\nbenchmark:\n  model: ${SB_YAML_TEST_MODEL:x}\n"
                     "  endpoint: {url: \"${SB_YAML_TEST_UNSET:http://d:9}\"}\n"
                     "  load: {concurrency: \"{{ conc }}\"}\n",
                     "v.yaml");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(value_of(*c, "--model"), "from-env");
  EXPECT_EQ(value_of(*c, "--url"), "http://d:9");
  EXPECT_EQ(value_of(*c, "--concurrency"), "3");
  auto missing = load_text("benchmark:\n  endpoint: {api_key: \"${SB_YAML_TEST_UNSET}\"}\n", "v.yaml");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("v.yaml:2: ${SB_YAML_TEST_UNSET} is not set"), std::string::npos)
      << missing.error().message;
  unsetenv("SB_YAML_TEST_MODEL");
}

TEST(YamlConfig, Durations) {
  EXPECT_DOUBLE_EQ(*parse_duration_s("30s"), 30);
  EXPECT_DOUBLE_EQ(*parse_duration_s("5m"), 300);
  EXPECT_DOUBLE_EQ(*parse_duration_s("1h"), 3600);
  EXPECT_DOUBLE_EQ(*parse_duration_s("250ms"), 0.25);
  EXPECT_DOUBLE_EQ(*parse_duration_s("2"), 2);
  EXPECT_FALSE(parse_duration_s("5 parsecs"));
}

double total_prob(const std::string& seq) {
  auto j = nlohmann::json::parse(seq);
  double t = 0;
  for (const auto& p : j["pairs"]) t += p["prob"].get<double>();
  return t;
}

TEST(YamlConfig, DistributionsMapOntoLengthFlags) {
  auto normal = load_text("dataset: {prompts: {isl: {mean: 512, stddev: 50}, osl: {value: 128}}}\n", "d.yaml");
  ASSERT_TRUE(normal) << normal.error().message;
  EXPECT_EQ(value_of(*normal, "--isl"), "512");
  EXPECT_EQ(value_of(*normal, "--isl-stddev"), "50");
  EXPECT_EQ(value_of(*normal, "--osl"), "128");

  auto mix = load_text("dataset: {prompts: {isl: {peaks: [{mean: 100, weight: 3}, {value: 1000, weight: 1}]}, "
                       "osl: {points: [{value: 10}, {value: 20}]}}}\n",
                       "d.yaml");
  ASSERT_TRUE(mix) << mix.error().message;
  const std::string seq = value_of(*mix, "--sequence-distribution");
  auto j = nlohmann::json::parse(seq);
  ASSERT_EQ(j["pairs"].size(), 4u);
  EXPECT_EQ(j["pairs"][0]["isl"], 100);
  EXPECT_DOUBLE_EQ(j["pairs"][0]["prob"].get<double>(), 37.5);  // 3/4 x 1/2
  EXPECT_EQ(j["pairs"][3]["isl"], 1000);
  EXPECT_NEAR(total_prob(seq), 100, 1e-9);

  // Log-normal: ten decile components whose middle brackets the median, mean near the target.
  auto ln = load_text("dataset: {prompts: {isl: {mean: 1000, median: 500, max: 5000}, osl: 50}}\n", "d.yaml");
  ASSERT_TRUE(ln) << ln.error().message;
  auto lj = nlohmann::json::parse(value_of(*ln, "--sequence-distribution"));
  ASSERT_EQ(lj["pairs"].size(), 10u);
  EXPECT_LT(lj["pairs"][4]["isl"].get<int>(), 500);
  EXPECT_GT(lj["pairs"][5]["isl"].get<int>(), 500);
  EXPECT_LE(lj["pairs"][9]["isl"].get<int>(), 5000);  // clamped by max
  double mean = 0;
  for (const auto& p : lj["pairs"]) mean += p["isl"].get<double>() / 10;
  EXPECT_GT(mean, 750);
  EXPECT_LT(mean, 1000);

  auto one_peak = load_text("dataset: {prompts: {isl: {peaks: [{mean: 5}]}, osl: 1}}\n", "d.yaml");
  EXPECT_FALSE(one_peak);
}

TEST(YamlConfig, SweepAndMultiRunBecomeExperimentFlags) {
  auto c = load_text(R"(multi_run: {num_runs: 3, cooldown_seconds: 10s, confidence_level: 0.9, set_consistent_seed: false,
  vary_seed_per_trial: true, disable_warmup_after_first: false}
sweep: {type: zip, parameters: {concurrency: [1, 2], "datasets.default.prompts.isl": [64, 128]}}
benchmark: {model: m, phases: {type: concurrency, concurrency: 8, requests: 10}}
)", "s.yaml");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(value_of(*c, "--num-profile-runs"), "3");
  EXPECT_EQ(value_of(*c, "--profile-run-cooldown-seconds"), "10");
  EXPECT_EQ(value_of(*c, "--confidence-level"), "0.9");
  EXPECT_EQ(value_of(*c, "--no-set-consistent-seed"), "<switch>");
  EXPECT_EQ(value_of(*c, "--vary-seed-per-trial"), "<switch>");
  EXPECT_EQ(value_of(*c, "--no-profile-run-disable-warmup-after-first"), "<switch>");
  EXPECT_EQ(value_of(*c, "--sweep-type"), "zip");
  EXPECT_EQ(value_of(*c, "--concurrency"), "1,2");  // the sweep replaced the phase's 8
  EXPECT_EQ(value_of(*c, "--isl"), "64,128");
  auto cells = expand_cells(c->args);
  ASSERT_TRUE(cells);
  ASSERT_EQ(cells->size(), 2u);
  EXPECT_EQ((*cells)[1].label, "concurrency=2,isl=128");
  for (const auto& a : (*cells)[0].argv) EXPECT_FALSE(is_experiment_flag(a)) << a;
}

TEST(YamlConfig, GridAndScenarioCells) {
  auto grid = load_text("sweep: {parameters: {concurrency: [1, 2, 4], rate: [5, 10]}}\nbenchmark: {model: m}\n", "g.yaml");
  ASSERT_TRUE(grid) << grid.error().message;
  auto cells = expand_cells(grid->args);
  ASSERT_TRUE(cells);
  EXPECT_EQ(cells->size(), 6u);
  auto sc = load_text("sweep:\n  type: scenarios\n  scenarios:\n    - {name: short, isl: 64, concurrency: 2}\n"
                      "    - {name: long, isl: 4096}\nbenchmark: {model: m, load: {concurrency: 8}}\n",
                      "sc.yaml");
  ASSERT_TRUE(sc) << sc.error().message;
  auto j = nlohmann::json::parse(value_of(*sc, "--sweep-scenarios"));
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["isl"], "64");
  EXPECT_EQ(j[1]["name"], "long");
  auto sc_cells = expand_cells(sc->args);
  ASSERT_TRUE(sc_cells);
  ASSERT_EQ(sc_cells->size(), 2u);
  const auto& argv = (*sc_cells)[0].argv;
  EXPECT_EQ(std::count(argv.begin(), argv.end(), "--concurrency"), 1);  // the scenario replaced 8
  auto bad = load_text("sweep: {parameters: {temperature: [1, 2]}}\n", "b.yaml");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind("b.yaml:1:", 0), 0u);
}

TEST(YamlConfig, CommandLineOverridesTheFile) {
  const std::string path = ::testing::TempDir() + "/override.yaml";
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("benchmark: {model: m, load: {concurrency: 8, requests: 20}, dataset: {prompts: {isl: 32}}}\n", f);
  fclose(f);
  const char* argv[] = {"profile", "-f", path.c_str(), "--concurrency", "2", "--synthetic-input-tokens-mean=9"};
  auto out = expand_profile_argv(6, argv);
  ASSERT_TRUE(out) << out.error().message;
  std::vector<std::string> got = *out;
  EXPECT_EQ(std::count(got.begin(), got.end(), "--concurrency"), 1);
  EXPECT_EQ(std::count(got.begin(), got.end(), "--isl"), 0);  // an alias of the flag given
  EXPECT_EQ(got.back(), "--synthetic-input-tokens-mean=9");
  EXPECT_NE(std::find(got.begin(), got.end(), "20"), got.end());
  const char* none[] = {"profile", "--concurrency", "2"};
  EXPECT_EQ(expand_profile_argv(3, none)->size(), 3u);
}

TEST(YamlConfig, EffectiveConfigWritesPlaceholdersAndLoadsBack) {
  const std::string yaml = effective_config_yaml({"--model", "m", "--api-key", "sk-very-secret", "--concurrency", "4"});
  EXPECT_EQ(yaml.find("sk-very-secret"), std::string::npos);
  EXPECT_NE(yaml.find("${OPENAI_API_KEY}"), std::string::npos);
  setenv("OPENAI_API_KEY", "sk-from-env", 1);
  auto back = load_text(yaml, "profile_config.yaml");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(value_of(*back, "--api-key"), "sk-from-env");
  EXPECT_EQ(value_of(*back, "--concurrency"), "4");
  unsetenv("OPENAI_API_KEY");
  EXPECT_FALSE(load_text(yaml, "profile_config.yaml"));  // the key must come from the environment
}

TEST(YamlConfig, EveryTemplateLoads) {
  ASSERT_GE(templates().size(), 12u);
  for (const auto& t : templates()) {
    auto c = load_text(t.text, t.name);
    ASSERT_TRUE(c) << t.name << ": " << c.error().message;
    EXPECT_TRUE(expand_cells(c->args)) << t.name;
  }
}

}  // namespace
}  // namespace servebench::yaml_config
