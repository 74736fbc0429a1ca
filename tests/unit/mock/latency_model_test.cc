#include "latency_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace servebench::mock {
namespace {

TEST(LatencyModel, ExactScheduleWithoutJitter) {
  RequestKnobs k;
  k.ttft_ns = 50'000'000;
  k.itl_ns = 10'000'000;
  core::Rng rng(1);
  auto ev = plan_events(k, 100, 0, 20, rng);
  ASSERT_EQ(ev.size(), 20u);
  for (size_t i = 0; i < ev.size(); ++i) {
    EXPECT_EQ(ev[i].offset_ns, 50'000'000 + static_cast<int64_t>(i) * 10'000'000);
    EXPECT_EQ(ev[i].tokens, 1);
    EXPECT_FALSE(ev[i].reasoning);
  }
  EXPECT_EQ(ev.back().offset_ns, 240'000'000);  // the example
}

TEST(LatencyModel, PrefillCostGrowsWithPrompt) {
  RequestKnobs k;
  k.ttft_ns = 1'000'000;
  k.prefill_ns_per_token = 2'000;
  core::Rng rng(1);
  EXPECT_EQ(plan_events(k, 0, 0, 1, rng)[0].offset_ns, 1'000'000);
  EXPECT_EQ(plan_events(k, 500, 0, 1, rng)[0].offset_ns, 2'000'000);
}

TEST(LatencyModel, TokensPerChunkAndReasoningPhases) {
  RequestKnobs k;
  k.itl_ns = 1'000;
  k.tokens_per_chunk = 3;
  core::Rng rng(1);
  auto ev = plan_events(k, 0, 4, 10, rng);
  // reasoning 4 → 3+1; content 10 → 3+3+3+1
  ASSERT_EQ(ev.size(), 6u);
  const int32_t want_tokens[] = {3, 1, 3, 3, 3, 1};
  const bool want_reasoning[] = {true, true, false, false, false, false};
  int64_t total = 0;
  for (size_t i = 0; i < ev.size(); ++i) {
    EXPECT_EQ(ev[i].tokens, want_tokens[i]) << i;
    EXPECT_EQ(ev[i].reasoning, want_reasoning[i]) << i;
    EXPECT_EQ(ev[i].offset_ns, static_cast<int64_t>(i) * 1'000) << i;
    total += ev[i].tokens;
  }
  EXPECT_EQ(total, 14);
}

TEST(LatencyModel, ZeroTokensStillHasOneEventAtTtft) {
  RequestKnobs k;
  k.ttft_ns = 42;
  core::Rng rng(1);
  auto ev = plan_events(k, 0, 0, 0, rng);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].offset_ns, 42);
  EXPECT_EQ(ev[0].tokens, 0);
}

TEST(LatencyModel, JitterHasConfiguredMeanAndCv) {
  RequestKnobs k;
  k.itl_ns = 10'000'000;
  k.jitter_cv = 0.5;
  core::Rng rng(7);
  auto ev = plan_events(k, 0, 0, 20'001, rng);
  double sum = 0, sum2 = 0;
  const size_t n = ev.size() - 1;
  for (size_t i = 1; i < ev.size(); ++i) {
    const double gap = static_cast<double>(ev[i].offset_ns - ev[i - 1].offset_ns);
    EXPECT_GT(gap, 0);
    sum += gap;
    sum2 += gap * gap;
  }
  const double mean = sum / static_cast<double>(n);
  const double sd = std::sqrt(sum2 / static_cast<double>(n) - mean * mean);
  EXPECT_NEAR(mean, 10e6, 10e6 * 0.03);
  EXPECT_NEAR(sd / mean, 0.5, 0.05);
}

TEST(LatencyModel, HugeJitterStaysFiniteAndPositive) {
  core::Rng rng(3);
  for (int i = 0; i < 10'000; ++i) {
    const int64_t v = jittered_ns(1'000'000'000'000, 1e9, rng);
    ASSERT_GE(v, 0);
    ASSERT_LE(v, int64_t{86'400} * 1'000'000'000);
  }
}

TEST(LatencyModel, SameSeedSamePlan) {
  RequestKnobs k;
  k.ttft_ns = 5'000'000;
  k.itl_ns = 1'000'000;
  k.jitter_cv = 0.3;
  core::Rng a(99), b(99), c(100);
  auto pa = plan_events(k, 10, 0, 50, a);
  auto pb = plan_events(k, 10, 0, 50, b);
  auto pc = plan_events(k, 10, 0, 50, c);
  ASSERT_EQ(pa.size(), pb.size());
  bool differs = false;
  for (size_t i = 0; i < pa.size(); ++i) {
    EXPECT_EQ(pa[i].offset_ns, pb[i].offset_ns);
    differs |= pa[i].offset_ns != pc[i].offset_ns;
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace servebench::mock
