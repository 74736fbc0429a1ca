// The search planners (planner.h) against simulated servers (no benchmark runs), and the
// grid recipes' post-processing (recipe_post.h).
#include "experiment/planner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "experiment/gp.h"
#include "experiment/isotonic.h"
#include "experiment/pooled.h"
#include "experiment/recipe_post.h"

namespace servebench::experiment {
namespace {

using Json = nlohmann::json;

PlanSpec spec_for(const std::string& slo, double lo, double hi) {
  PlanSpec s;
  if (!slo.empty()) s.slos = *parse_slos(slo);
  Dimension d;
  d.axis = "concurrency";
  d.path = "concurrency";
  d.lo = lo;
  d.hi = hi;
  s.dims = {d};
  s.options.min = lo;
  s.options.max = hi;
  s.options.budget = 20;
  return s;
}

// TTFT grows linearly with the load (10 ms + 5 ms per request in flight); throughput rises
// until `peak` and falls after it.
PointProbe linear_server(double peak, int* calls) {
  return [peak, calls](const Point& p, int64_t, int64_t) {
    ++*calls;
    ProbeResult r;
    r.ok = true;
    const double x = p[0];
    r.values["time_to_first_token_p99"] = 10 + 5 * x;
    r.values["output_token_throughput_avg"] = x <= peak ? 100 * x : 100 * peak - 40 * (x - peak);
    return r;
  };
}

TEST(ParseDimension, GrammarAndAxes) {
  auto d = parse_dimension("phases.profiling.concurrency:1,1000:int");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->axis, "concurrency");
  EXPECT_TRUE(d->integer);
  EXPECT_EQ(d->hi, 1000);
  d = parse_dimension("request_rate:0.5,20");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->axis, "request-rate");
  EXPECT_FALSE(d->integer);
  for (const char* bad : {"concurrency", "concurrency:5,1:int", "concurrency:1,9:float",
                          "temperature:0.1,1", "concurrency:a,b", ":1,2"}) {
    auto r = parse_dimension(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("--search-space"), std::string::npos);
  }
}

TEST(Isotonic, PavaPoolsViolatorsAndPchipFindsTheZero) {
  EXPECT_EQ(pava_nonincreasing({3, 1, 2, 0}), (std::vector<double>{3, 1.5, 1.5, 0}));
  EXPECT_EQ(pava_nonincreasing({1, 2, 3}), (std::vector<double>{2, 2, 2}));
  const auto z = pchip_zero({1, 2, 4, 8}, {0.9, 0.8, 0.4, -0.4});
  ASSERT_TRUE(z);
  EXPECT_NEAR(*z, 6, 0.6);  // between 4 and 8, near the linear crossing
  EXPECT_FALSE(pchip_zero({1, 2}, {0.5, 0.1}));
  EXPECT_NEAR(pchip_at({1, 2, 4}, {3, 2, 0}, 2), 2, 1e-12);
}

TEST(Planners, IsotonicFindsTheKneeInFewerProbesThanBisection) {
  // 10 + 5x <= 100  <=>  x <= 18.
  auto spec = spec_for("time_to_first_token:p99<=100ms", 1, 256);
  int iso_calls = 0, mono_calls = 0;
  const auto iso = make_planner("smooth_isotonic")->run(spec, linear_server(1000, &iso_calls));
  const auto mono = make_planner("monotonic_sla")->run(spec, linear_server(1000, &mono_calls));
  ASSERT_TRUE(iso.answer && mono.answer);
  EXPECT_EQ(*iso.answer, 18);
  EXPECT_EQ(*iso.first_fail, 19);
  EXPECT_EQ(iso.stop_reason, "resolution");
  EXPECT_EQ(*mono.answer, 18);
  EXPECT_LT(iso_calls, mono_calls) << "isotonic " << iso_calls << " vs bisection " << mono_calls;
}

TEST(Planners, BayesianMaximizesTheObjectiveAndIsSeeded) {
  auto spec = spec_for("", 1, 64);
  spec.objective = Objective{"output_token_throughput_avg", true};
  spec.options.budget = 14;
  spec.seed = 7;
  int calls = 0;
  const auto r = make_planner("bayesian")->run(spec, linear_server(23, &calls));
  ASSERT_TRUE(r.answer) << r.stop_reason;
  EXPECT_NEAR(*r.answer, 23, 2)
      << Json::parse(search_history_json({}, spec.options, "c", r)).dump();
  EXPECT_LE(calls, 14);
  int again = 0;
  const auto r2 = make_planner("bayesian")->run(spec, linear_server(23, &again));
  ASSERT_EQ(r2.steps.size(), r.steps.size());
  for (size_t i = 0; i < r.steps.size(); ++i) EXPECT_EQ(r2.steps[i].load, r.steps[i].load);
}

TEST(Planners, BayesianRespectsTheSlo) {
  // Throughput keeps rising, but TTFT p99 <= 75 ms holds only up to 13.
  auto spec = spec_for("time_to_first_token:p99<=75ms", 1, 64);
  spec.objective = Objective{"output_token_throughput_avg", true};
  spec.options.budget = 15;
  spec.seed = 3;
  int calls = 0;
  const auto r = make_planner("bayesian")->run(spec, linear_server(1000, &calls));
  ASSERT_TRUE(r.answer);
  EXPECT_LE(*r.answer, 13);
  EXPECT_GE(*r.answer, 11);
  ASSERT_TRUE(r.best);
  EXPECT_TRUE(r.steps[static_cast<size_t>(*r.best)].pass);
}

TEST(Planners, ChecksAndNames) {
  auto spec = spec_for("", 1, 64);
  EXPECT_NE(make_planner("monotonic_sla")->check(spec), "");  // no SLO
  EXPECT_NE(make_planner("bayesian")->check(spec), "");       // no objective
  spec.objective = Objective{"goodput_avg", true};
  EXPECT_EQ(make_planner("optuna")->check(spec), "");
  EXPECT_EQ(make_planner("nonesuch"), nullptr);
  EXPECT_EQ(log_grid(1, 1000, 8, true), (std::vector<double>{1, 3, 7, 19, 52, 139, 373, 1000}));
}

TEST(GaussianProcess, InterpolatesAndGrowsUncertainAwayFromData) {
  GaussianProcess gp;
  gp.fit({{0.0}, {0.5}, {1.0}}, {1, 3, 2});
  double m = 0, sd = 0, m_far = 0, sd_far = 0;
  gp.predict({0.5}, &m, &sd);
  gp.predict({0.25}, &m_far, &sd_far);
  EXPECT_NEAR(m, 3, 0.3);
  EXPECT_GT(sd_far, sd);
  EXPECT_NEAR(expected_improvement(0, 1, 0), normal_pdf(0), 1e-12);
  EXPECT_NEAR(normal_cdf(1.96), 0.975, 1e-3);
}

SearchOutcome grid_run(const PlanSpec& spec, const PointProbe& p) {
  return make_planner("grid")->run(spec, p);
}

TEST(RecipePost, DegradationKneeAndSlaBreach) {
  auto spec = spec_for("time_to_first_token:p99<=40ms", 1, 64);
  for (double c : log_grid(1, 64, 7, true)) spec.grid.push_back({c});
  int calls = 0;
  const auto r = grid_run(spec, [&](const Point& p, int64_t, int64_t) {
    ++calls;
    ProbeResult x;
    x.ok = true;
    x.values["request_latency_p99"] = p[0] <= 8 ? 100 + p[0] : 300;
    x.values["time_to_first_token_p99"] = 10 + 5 * p[0];
    return x;
  });
  EXPECT_EQ(calls, 7);
  const Json k = Json::parse(degradation_knee_json(r, KneeOptions{}));
  EXPECT_EQ(k["baseline_concurrency"], 1);
  EXPECT_EQ(k["knee_concurrency"], 16);
  EXPECT_EQ(k["all_points"].size(), 7u);
  const Json b = Json::parse(sla_breach_json(spec.slos, r, "concurrency"));
  EXPECT_EQ(b["max_passing_concurrency"], 4);
  EXPECT_EQ(b["first_failing_concurrency"], 8);
  EXPECT_TRUE(b["monotonicity_check"].get<bool>());
}

TEST(RecipePost, PrefillCurveParetoAndSurface) {
  PlanSpec spec = spec_for("", 1, 64);
  for (double isl : log_grid(256, 4096, 5, true)) spec.grid.push_back({isl});
  const auto r = grid_run(spec, [](const Point& p, int64_t, int64_t) {
    ProbeResult x;
    x.ok = true;
    x.values["time_to_first_token_avg"] = 0.05 * p[0] + 2;
    return x;
  });
  const Json c = Json::parse(prefill_curve_json(r, 0));
  EXPECT_EQ(c["fit_form"], "linear");
  EXPECT_NEAR(c["coefficients"][0].get<double>(), 0.05, 1e-9);
  EXPECT_NEAR(c["coefficients"][1].get<double>(), 2, 1e-6);
  EXPECT_NEAR(c["r_squared"].get<double>(), 1, 1e-9);
  const CurveFit q = fit_polynomial({1, 2, 3, 4}, {1, 4, 9, 16}, 2);
  EXPECT_NEAR(q.coefficients[0], 1, 1e-9);

  PlanSpec p3 = spec_for("", 1, 64);
  p3.grid = {{128, 128, 1}, {128, 128, 4}, {512, 256, 1}};
  const auto pr = grid_run(p3, [](const Point& p, int64_t, int64_t) {
    ProbeResult x;
    x.ok = true;
    x.values["time_to_first_token_p95"] = p[0] / 10 + p[2];
    x.values["output_token_throughput_avg"] = p[2] * 100;
    x.values["inter_token_latency_avg"] = p[2] + p[1] / 100;
    return x;
  });
  const Json ps = Json::parse(pareto_sweep_json(pr, 0, 1, 2));
  ASSERT_EQ(ps["cells"].size(), 3u);
  EXPECT_TRUE(ps["cells"][0]["pareto_optimal"].get<bool>());   // lowest TTFT
  EXPECT_TRUE(ps["cells"][1]["pareto_optimal"].get<bool>());   // highest throughput
  EXPECT_FALSE(ps["cells"][2]["pareto_optimal"].get<bool>());  // dominated by the first
  const Json s = Json::parse(decode_itl_surface_json(pr, 2, 1));
  EXPECT_EQ(s["surface"]["concurrency_axis"], Json({1, 4}));
  EXPECT_EQ(s["surface"]["osl_axis"], Json({128, 256}));
  EXPECT_TRUE(s["surface"]["itl_grid"][1][1].is_null());
}

}  // namespace
}  // namespace servebench::experiment

namespace servebench::experiment {
namespace {

TEST(Pooled, PercentileOverEveryTrialsRequests) {
  const std::string dir = ::testing::TempDir();
  const auto write = [&](const std::string& name, std::vector<double> ttft) {
    std::ofstream out(dir + "/" + name);
    for (double v : ttft)
      out << R"({"metadata":{},"metrics":{"time_to_first_token":{"value":)" << v
          << R"(,"unit":"ms"},"inter_chunk_latency":{"value":[1,2],"unit":"ms"}}})" << "\n";
    out << R"({"metadata":{},"metrics":{},"error":{"code":500}})" << "\n";
  };
  write("a.jsonl", {10, 10, 10, 10});
  write("b.jsonl", {100, 100, 100, 100});
  auto k = percentile_key("time_to_first_token_p50");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->tag, "time_to_first_token");
  EXPECT_DOUBLE_EQ(k->q, 0.5);
  EXPECT_FALSE(percentile_key("time_to_first_token_avg"));
  auto p = pooled_percentile({dir + "/a.jsonl", dir + "/b.jsonl"}, "time_to_first_token", 0.25);
  ASSERT_TRUE(p && *p);
  EXPECT_DOUBLE_EQ(**p, 10);  // the mean of the two files' p25 would be 55
  p = pooled_percentile({dir + "/a.jsonl", dir + "/b.jsonl"}, "time_to_first_token", 0.5);
  EXPECT_DOUBLE_EQ(**p, 55);
  auto none = pooled_percentile({dir + "/a.jsonl"}, "request_latency", 0.5);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  EXPECT_FALSE(pooled_percentile({dir + "/missing.jsonl"}, "request_latency", 0.5));
}

}  // namespace
}  // namespace servebench::experiment
