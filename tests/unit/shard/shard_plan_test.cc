// The union of the shards' parts of a plan is the single-process plan, request for request:
// every load mode driven through WorkerSchedule as the workers drive it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "load/plan.h"
#include "load/schedule.h"

namespace servebench::load {
namespace {

constexpr int64_t kMs = 1'000'000;
using Sends = std::vector<std::pair<uint64_t, int64_t>>;  // (request index, intended offset)

// Every credit of one phase of `plan` over `workers` schedules, completions at once (each
// credit's request finishes 1 ms after its intended time).
Sends drive(const PhasePlan& phase, int workers) {
  std::atomic<int64_t> issued{0};
  std::vector<WorkerSchedule> ws;
  for (int w = 0; w < workers; ++w) ws.emplace_back(phase, w, workers, 0, &issued);
  Sends out;
  for (int64_t now = 0; now < 10'000 * kMs; now += kMs) {
    bool any = false;
    for (auto& w : ws) {
      Credit c;
      while (w.next_credit(now, 0, 0, &c)) {
        out.emplace_back(c.index, c.intended_ns);
        if (!phase.open_loop()) w.on_request_done(now + kMs);
      }
      any |= !w.exhausted();
    }
    if (!any) break;
  }
  std::sort(out.begin(), out.end());
  return out;
}

Sends union_of_shards(const LoadSpec& spec, int shards, int workers, size_t phase) {
  Sends all;
  for (int i = 0; i < shards; ++i) {
    Plan plan = build_plan(spec, 42);
    EXPECT_TRUE(apply_shard(&plan, Shard{i, shards}));
    Sends part = drive(plan.phases[phase], workers);
    for (const auto& s : part) EXPECT_EQ(s.first % static_cast<uint64_t>(shards), static_cast<uint64_t>(i));
    all.insert(all.end(), part.begin(), part.end());
  }
  std::sort(all.begin(), all.end());
  return all;
}

Sends single(const LoadSpec& spec, size_t phase) {
  Plan plan = build_plan(spec, 42);
  return drive(plan.phases[phase], 1);
}

TEST(ShardPlan, RateModeUnionIsThePlanWithTheSameIntendedTimes) {
  LoadSpec spec;
  spec.request_rate = 200;
  spec.arrival_pattern = ArrivalPattern::kPoisson;
  spec.request_count = 101;
  const Sends one = single(spec, 0);
  ASSERT_EQ(one.size(), 101u);
  EXPECT_EQ(union_of_shards(spec, 4, 3, 0), one);
  EXPECT_EQ(union_of_shards(spec, 7, 1, 0), one);
}

TEST(ShardPlan, FixedScheduleUnionIsThePlan) {
  LoadSpec spec;
  auto offsets = std::make_shared<std::vector<int64_t>>();
  for (int i = 0; i < 37; ++i) offsets->push_back(i * i * kMs / 3);
  spec.fixed_offsets_ns = offsets;
  const Sends one = single(spec, 0);
  ASSERT_EQ(one.size(), 37u);
  for (size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i].second, (*offsets)[i]);
  EXPECT_EQ(union_of_shards(spec, 4, 2, 0), one);
}

TEST(ShardPlan, ClosedLoopSplitsSlotsAndRequestIndices) {
  LoadSpec spec;
  spec.concurrency = 10;
  spec.request_count = 53;
  std::set<uint64_t> indices;
  int64_t slots = 0;
  for (int i = 0; i < 4; ++i) {
    Plan plan = build_plan(spec, 42);
    ASSERT_TRUE(apply_shard(&plan, Shard{i, 4}));
    // Slots: 10 over 4 shards is 3, 3, 2, 2 (the remainder to the first shards).
    EXPECT_EQ(plan.phases[0].concurrency_limit_at(0), i < 2 ? 3 : 2);
    slots += plan.phases[0].concurrency_limit_at(0);
    for (const auto& s : drive(plan.phases[0], 2)) EXPECT_TRUE(indices.insert(s.first).second);
  }
  EXPECT_EQ(slots, 10);
  std::set<uint64_t> want;
  for (uint64_t k = 0; k < 53; ++k) want.insert(k);
  EXPECT_EQ(indices, want);
}

TEST(ShardPlan, ConcurrencyRampStepsAddUpToTheGlobalLimit) {
  LoadSpec spec;
  spec.concurrency = 9;
  spec.concurrency_ramp_ns = 800 * kMs;
  spec.duration_ns = 1000 * kMs;
  const Plan whole = build_plan(spec, 1);
  std::vector<Plan> parts;
  for (int i = 0; i < 3; ++i) {
    parts.push_back(build_plan(spec, 1));
    ASSERT_TRUE(apply_shard(&parts.back(), Shard{i, 3}));
  }
  for (int64_t t = 0; t <= 1000 * kMs; t += 10 * kMs) {
    int64_t sum = 0;
    for (const auto& p : parts) sum += p.phases[0].concurrency_limit_at(t);
    EXPECT_EQ(sum, whole.phases[0].concurrency_limit_at(t)) << "at " << t;
  }
}

TEST(ShardPlan, WarmupIsSplitTheSameWayAndProfilingIsNumberedAfterIt) {
  LoadSpec spec;
  spec.request_rate = 100;
  spec.request_count = 40;
  spec.warmup_request_count = 9;
  const Sends warm = single(spec, 0);
  ASSERT_EQ(warm.size(), 9u);
  EXPECT_EQ(union_of_shards(spec, 4, 2, 0), warm);
  EXPECT_EQ(union_of_shards(spec, 4, 2, 1), single(spec, 1));
  Plan plan = build_plan(spec, 42);
  ASSERT_TRUE(apply_shard(&plan, Shard{1, 4}));
  ASSERT_TRUE(plan.phases[1].index_base.has_value());
  EXPECT_EQ(*plan.phases[1].index_base, 9u);  // as in one process: after the 9 warm-up requests
  EXPECT_FALSE(plan.phases[0].index_base.has_value());
}

TEST(ShardPlan, OneShardOfOneIsThePlan) {
  LoadSpec spec;
  spec.request_rate = 50;
  spec.request_count = 20;
  Plan plan = build_plan(spec, 42);
  ASSERT_TRUE(apply_shard(&plan, Shard{0, 1}));
  EXPECT_EQ(drive(plan.phases[0], 2), single(spec, 0));
}

TEST(ShardPlan, RefusesAConcurrencyThatLeavesAShardNoSlot) {
  LoadSpec spec;
  spec.concurrency = 3;
  spec.request_count = 10;
  Plan plan = build_plan(spec, 42);
  auto st = apply_shard(&plan, Shard{3, 4});
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("--shard 3/4"), std::string::npos);
  EXPECT_NE(st.error().message.find("at least 4"), std::string::npos);
}

TEST(ShardPlan, ShardShareCountsAndWorkerSizing) {
  const Shard s{1, 4};
  EXPECT_EQ(s.global(0), 1u);
  EXPECT_EQ(s.global(3), 13u);
  EXPECT_EQ(s.share_of(10), 3);  // 1, 5, 9
  EXPECT_EQ(Shard({3, 4}).share_of(3), 0);
  LoadSpec spec;
  spec.concurrency = 10;
  EXPECT_EQ(*shard_load_spec(spec, Shard{3, 4}).concurrency, 2);
  EXPECT_EQ(*shard_load_spec(spec, Shard{0, 1}).concurrency, 10);
}

}  // namespace
}  // namespace servebench::load
