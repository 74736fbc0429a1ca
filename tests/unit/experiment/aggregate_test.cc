// Trial aggregation: statistics of known samples, summary flattening, files, convergence.
#include "experiment/aggregate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace servebench::experiment {
namespace {

Trial trial(const std::string& label, double ttft, double rps, bool ok = true) {
  Trial t;
  t.label = label;
  t.ok = ok;
  if (!ok) {
    t.exit_code = 3;
    t.error = "every request failed";
    return t;
  }
  t.metrics.values["time_to_first_token_p99"] = ttft;
  t.metrics.units["time_to_first_token_p99"] = "ms";
  t.metrics.values["request_throughput_avg"] = rps;
  t.metrics.units["request_throughput_avg"] = "requests/sec";
  return t;
}

TEST(SummarizeTrials, FiveValues) {
  // The worked example: 150, 152, 148, 155, 151 ms.
  const TrialStats s = summarize_trials({150, 152, 148, 155, 151}, 0.95);
  EXPECT_EQ(s.n, 5);
  EXPECT_NEAR(s.mean, 151.2, 1e-9);
  EXPECT_NEAR(s.std, 2.588435, 1e-6);
  EXPECT_NEAR(s.se, 2.588435 / std::sqrt(5.0), 1e-6);
  EXPECT_NEAR(s.t_critical, 2.776445, 1e-5);
  EXPECT_NEAR(s.ci_low, 151.2 - 2.776445 * s.se, 1e-5);
  EXPECT_NEAR(s.ci_high, 151.2 + 2.776445 * s.se, 1e-5);
  EXPECT_DOUBLE_EQ(s.min, 148);
  EXPECT_DOUBLE_EQ(s.max, 155);
  EXPECT_NEAR(s.cv, s.std / 151.2, 1e-12);
}

TEST(SummarizeTrials, OneValueHasNoInterval) {
  const TrialStats s = summarize_trials({42}, 0.95);
  EXPECT_EQ(s.n, 1);
  EXPECT_DOUBLE_EQ(s.ci_low, 42);
  EXPECT_DOUBLE_EQ(s.ci_high, 42);
  EXPECT_DOUBLE_EQ(s.t_critical, 0);
}

TEST(ParseRunMetrics, FlattensMetricObjects) {
  auto m = parse_run_metrics(R"({"schema_version":"1.4","input_config":{"unit":3},
    "time_to_first_token":{"unit":"ms","avg":5.5,"p99":9,"count":20},
    "request_throughput":{"unit":"requests/sec","avg":100}})");
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(m->values.at("time_to_first_token_avg"), 5.5);
  EXPECT_DOUBLE_EQ(m->values.at("time_to_first_token_p99"), 9);
  EXPECT_DOUBLE_EQ(m->values.at("request_throughput_avg"), 100);
  EXPECT_EQ(m->units.at("time_to_first_token_p99"), "ms");
  EXPECT_EQ(m->values.count("time_to_first_token_count"), 0u);
  EXPECT_EQ(m->values.count("input_config_unit"), 0u);
  EXPECT_FALSE(parse_run_metrics("[1,2]"));
}

TEST(AggregateTrials, SkipsFailedTrials) {
  const std::vector<Trial> ts = {trial("run_0001", 10, 100), trial("run_0002", 0, 0, false),
                                 trial("run_0003", 14, 110)};
  const auto agg = aggregate_trials(ts, 0.95);
  ASSERT_EQ(agg.count("time_to_first_token_p99"), 1u);
  EXPECT_EQ(agg.at("time_to_first_token_p99").n, 2);
  EXPECT_DOUBLE_EQ(agg.at("time_to_first_token_p99").mean, 12);
  const auto doc = nlohmann::json::parse(aggregate_json(ts, 3, 0.95));
  EXPECT_EQ(doc["metadata"]["num_successful_runs"], 2);
  EXPECT_EQ(doc["metadata"]["num_profile_runs"], 3);
  EXPECT_EQ(doc["metadata"]["failed_runs"][0]["label"], "run_0002");
  EXPECT_EQ(doc["metrics"]["request_throughput_avg"]["unit"], "requests/sec");
  EXPECT_NEAR(doc["metrics"]["request_throughput_avg"]["t_critical"].get<double>(), 12.706, 1e-3);
  const std::string csv = aggregate_csv(ts, 0.95);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Metric,Unit,Mean,Std,Min,Max,CV,SE,CI Low,CI High,t Critical,Count");
  EXPECT_NE(csv.find("time_to_first_token_p99,ms,12,"), std::string::npos);
}

TEST(Converged, CiWidthAndCv) {
  std::vector<Trial> tight = {trial("a", 100, 1), trial("b", 100.5, 1), trial("c", 99.5, 1)};
  std::vector<Trial> loose = {trial("a", 100, 1), trial("b", 150, 1), trial("c", 60, 1)};
  EXPECT_TRUE(converged(tight, "time_to_first_token_p99", "ci_width", 0.05, 0.95));
  EXPECT_FALSE(converged(loose, "time_to_first_token_p99", "ci_width", 0.05, 0.95));
  EXPECT_TRUE(converged(tight, "time_to_first_token_p99", "cv", 0.01, 0.95));
  EXPECT_FALSE(converged(loose, "time_to_first_token_p99", "cv", 0.1, 0.95));
  // Two trials are never enough to judge.
  tight.pop_back();
  EXPECT_FALSE(converged(tight, "time_to_first_token_p99", "ci_width", 0.5, 0.95));
}

}  // namespace
}  // namespace servebench::experiment
