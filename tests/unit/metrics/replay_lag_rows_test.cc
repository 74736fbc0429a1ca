// AIPerf 0.13's replay_sched_lag_* rows from the schedule_lag distribution: percentiles minus the
// minimum (the least-late request is the anchor), degraded past 500 ms at p99.
#include "metrics/replay_lag_rows.h"

#include <gtest/gtest.h>

#include "metrics/metric_info.h"

namespace servebench::metrics {
namespace {

const MetricResult* find(const std::vector<MetricResult>& m, std::string_view tag) {
  for (const auto& r : m)
    if (r.tag() == tag) return &r;
  return nullptr;
}

std::vector<MetricResult> with_lags(std::vector<double> lags_ns) {
  std::vector<MetricResult> m(1);
  m[0].info = find_metric("schedule_lag");
  m[0].distribution = true;
  m[0].stats = compute_stats(lags_ns);
  return m;
}

TEST(ReplayLagRows, AnchoredAtTheLeastLateRequest) {
  // Offsets 3, 4, 5, ..., 12 ms: anchored 0..9 ms; linear p50 = 4.5, p90 = 8.1, p99 = 8.91.
  std::vector<double> lags;
  for (int i = 0; i < 10; ++i) lags.push_back((3 + i) * 1e6);
  auto m = with_lags(lags);
  append_replay_lag_rows(&m);
  ASSERT_EQ(m.size(), 5u);
  EXPECT_NEAR(find(m, "replay_sched_lag_p50")->value, 4.5e6, 1e-3);
  EXPECT_NEAR(find(m, "replay_sched_lag_p90")->value, 8.1e6, 1e-3);
  EXPECT_NEAR(find(m, "replay_sched_lag_p99")->value, 8.91e6, 1e-3);
  EXPECT_EQ(find(m, "replay_sched_lag_p99")->info->display_unit, "ms");
  EXPECT_DOUBLE_EQ(find(m, "replay_sched_lag_p99")->info->to_display(8.91e6), 8.91);
  EXPECT_EQ(find(m, "replay_sched_degraded")->value, 0);
  EXPECT_TRUE(find(m, "replay_sched_degraded")->info->has(kNoConsole));
}

TEST(ReplayLagRows, DegradedPastHalfASecondAtP99) {
  std::vector<double> lags(99, 1e6);
  lags.push_back(900e6);  // one request 0.9 s late
  lags.push_back(900e6);
  auto m = with_lags(lags);
  append_replay_lag_rows(&m);
  EXPECT_GT(find(m, "replay_sched_lag_p99")->value, 500e6);
  EXPECT_EQ(find(m, "replay_sched_degraded")->value, 1);
}

TEST(ReplayLagRows, NothingWithoutScheduleLag) {
  std::vector<MetricResult> none;
  append_replay_lag_rows(&none);
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace servebench::metrics
