// From search flags to a plan (search_plan.h): recipes, planners, SLA kinds, tiers and the
// one-line errors, without running anything.
#include "experiment/search_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace servebench::experiment {
namespace {

Result<Plan> plan_of(const std::vector<std::pair<std::string, std::string>>& flags) {
  PlanArgs a;
  a.options.resolution = 0;
  for (const auto& [n, v] : flags)
    if (auto st = take_plan_flag(n, v, &a); !st) return tl::unexpected(st.error());
  return expand_plan(a);
}

TEST(SearchPlan, RecipesPickPlannersAndArtifacts) {
  auto p = plan_of({{"--search-recipe", "max-concurrency-under-sla"},
                    {"--search-style", "bo"},
                    {"--ttft-sla-ms", "200"},
                    {"--error-rate-sla", "0.05"}});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->planner, "bayesian");
  EXPECT_EQ(p->spec.objective->key, "output_token_throughput_avg");
  ASSERT_EQ(p->spec.slos.size(), 2u);
  EXPECT_EQ(p->spec.slos[1].key, "request_error_rate_avg");
  EXPECT_DOUBLE_EQ(p->spec.slos[1].threshold, 5);

  p = plan_of({{"--search-recipe", "max-goodput-under-slo"},
               {"--ttft-sla-ms", "500"},
               {"--e2e-sla-ms", "2000"}});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->goodput, "time_to_first_token:500 request_latency:2000");
  EXPECT_EQ(p->spec.slos[0].key, "good_request_fraction_avg");
  EXPECT_DOUBLE_EQ(p->spec.slos[0].threshold, 0.95);
  EXPECT_FALSE(p->spec.slos[0].at_most);

  p = plan_of({{"--search-recipe", "decode-itl-curve"}});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->planner, "grid");
  EXPECT_EQ(p->post, "decode_itl_surface");
  EXPECT_EQ(p->spec.grid.size(), 24u);  // 6 concurrencies x 4 OSLs
  EXPECT_EQ(p->spec.options.budget, 24);

  p = plan_of({{"--search-recipe", "concurrency-ramp"}, {"--degradation-threshold", "0.3"}});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->spec.grid.size(), 8u);
  EXPECT_EQ(p->spec.grid.back()[0], 1000);
  EXPECT_DOUBLE_EQ(p->knee.threshold, 0.3);
}

TEST(SearchPlan, ExplicitSpaceTiersAndPooling) {
  auto p = plan_of({{"--search-space", "phases.profiling.concurrency:2,64:int"},
                    {"--search-metric", "time_to_first_token"},
                    {"--search-stat", "p99"},
                    {"--search-direction", "minimize"},
                    {"--search-random-seed", "3"},
                    {"--search-percentile-pooling", "pooled"}});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->planner, "bayesian");
  EXPECT_EQ(p->over, "concurrency");
  EXPECT_FALSE(p->spec.objective->maximize);
  EXPECT_EQ(*p->spec.seed, 3u);
  EXPECT_EQ(p->pooled_keys, std::vector<std::string>{"time_to_first_token_p99"});

  p = plan_of({{"--slo", "request_latency:p99<=2s"},
               {"--over", "concurrency"},
               {"--search-sla-tier",
                "gold:time_to_first_token:p95:lt:100,output_token_throughput:avg:gt:50"},
               {"--search-sla-tier", "time_to_first_token:p95:lt:500"}});
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->tiers.size(), 2u);
  EXPECT_EQ(p->tiers[0].first, "gold");
  EXPECT_EQ(p->tiers[0].second.size(), 3u);  // two tier filters + the common SLO
  EXPECT_FALSE(p->tiers[0].second[1].at_most);
  EXPECT_EQ(p->tiers[1].first, "tier_2");
}

TEST(SearchPlan, BadCombinationsAreOneLineErrors) {
  const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
      {{"--search-recipe", "prefill-ttft-curve"}, {"--osl-min", "4"}},
      {{"--search-recipe", "max-goodput-under-slo"}},
      {{"--search-recipe", "pareto-sweep"}, {"--isl-osl-pairs", "128/128,128/128"}},
      {{"--search-recipe", "concurrency-ramp"}, {"--search-planner", "bayesian"}},
      {{"--search-space", "concurrency:1,64:int"}, {"--search-metric", "goodput"}},
      {{"--search-space", "concurrency:1,64:int"}, {"--search-planner", "monotonic_sla"}},
      {{"--slo", "request_latency:avg<=1s"},
       {"--over", "concurrency"},
       {"--search-percentile-pooling", "pooled"}},
      {{"--slo", "time_to_first_token:p99<=1s"},
       {"--over", "concurrency"},
       {"--search-sla-tier", "time_to_first_token:p95:lt:100"}},
      {{"--slo-attainment-fraction", "1.5"}},
      {{"--optuna-sampler", "random"}},
  };
  for (const auto& c : cases) {
    auto p = plan_of(c);
    ASSERT_FALSE(p) << c[0].first << " " << c[0].second;
    EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace servebench::experiment
