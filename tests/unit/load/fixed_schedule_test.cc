#include <gtest/gtest.h>

#include "config/benchmark_config.h"
#include "load/plan.h"

namespace servebench::load {
namespace {

config::BenchmarkConfig base_config() {
  config::BenchmarkConfig c;
  c.models = {"m"};
  c.urls = {"http://127.0.0.1:1"};
  return c;
}

LoadSpec replay(std::shared_ptr<const std::vector<int64_t>> offsets) {
  LoadSpec spec;
  spec.concurrency = 1;  // the closed-loop default a fixed schedule must not inherit
  spec.fixed_offsets_ns = std::move(offsets);
  return spec;
}

TEST(FixedSchedule, ArrivalsAreTheGivenOffsetsInOrder) {
  auto offsets = std::make_shared<std::vector<int64_t>>(std::vector<int64_t>{0, 5, 5, 20'000'000, 31'000'000});
  Plan plan = build_plan(replay(offsets), 1);
  ASSERT_EQ(plan.phases.size(), 1u);
  const PhasePlan& p = plan.phases[0];
  EXPECT_TRUE(p.open_loop());
  EXPECT_TRUE(p.concurrency_steps.empty());  // no closed-loop default: requests go at their times
  EXPECT_EQ(materialize_arrivals(p), *offsets);
}

TEST(FixedSchedule, RequestCountAndDurationCutTheReplay) {
  auto offsets = std::make_shared<std::vector<int64_t>>(std::vector<int64_t>{0, 10, 20, 30, 40});
  auto spec = replay(offsets);
  spec.request_count = 3;
  EXPECT_EQ(materialize_arrivals(build_plan(spec, 1).phases[0]), (std::vector<int64_t>{0, 10, 20}));
  spec.request_count.reset();
  spec.duration_ns = 25;
  EXPECT_EQ(materialize_arrivals(build_plan(spec, 1).phases[0]), (std::vector<int64_t>{0, 10, 20}));
  spec.duration_ns.reset();
  spec.concurrency_ceiling = 2;  // a ceiling when given
  auto with_ceiling = build_plan(spec, 1).phases[0];
  EXPECT_EQ(with_ceiling.concurrency_limit_at(0), 2);
  EXPECT_EQ(materialize_arrivals(with_ceiling).size(), 5u);
}

TEST(FixedSchedule, ConfigRules) {
  auto cfg = base_config();
  cfg.fixed_schedule = true;
  EXPECT_FALSE(config::validate(cfg));  // needs --input-file
  cfg.input_file = "trace.jsonl";
  EXPECT_TRUE(config::validate(cfg));
  cfg.request_rate = 5;
  EXPECT_FALSE(config::validate(cfg));
  cfg.request_rate.reset();
  cfg.fixed_schedule.reset();
  cfg.fixed_schedule_auto_offset = true;
  EXPECT_FALSE(config::validate(cfg));  // offsets need --fixed-schedule
  cfg = base_config();
  cfg.isl_block_size = 64;
  EXPECT_FALSE(config::validate(cfg));  // needs --input-file
}

TEST(RangeRatioConfig, RulesPerStyle) {
  auto cfg = base_config();
  cfg.isl_range_ratio = 0.5;
  EXPECT_TRUE(config::validate(cfg));
  cfg.isl_range_ratio = 1.0;  // vLLM's convention needs r < 1
  EXPECT_FALSE(config::validate(cfg));
  cfg.range_ratio_sglang = true;  // SGLang's allows r = 1 ...
  EXPECT_TRUE(config::validate(cfg));
  cfg.isl_range_ratio = 0.0;  // ... but not 0
  EXPECT_FALSE(config::validate(cfg));
  cfg = base_config();
  cfg.isl_range_ratio = 0.2;
  cfg.isl_stddev_tokens = 10;  // one spread or the other
  EXPECT_FALSE(config::validate(cfg));
  cfg = base_config();
  cfg.osl_range_ratio = 0.2;  // needs --osl
  EXPECT_FALSE(config::validate(cfg));
  cfg.osl_mean_tokens = 100;
  EXPECT_TRUE(config::validate(cfg));
}

}  // namespace
}  // namespace servebench::load
