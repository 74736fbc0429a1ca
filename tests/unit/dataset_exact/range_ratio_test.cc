#include <gtest/gtest.h>

#include "dataset/synthetic_prompts.h"

namespace servebench::dataset {
namespace {

struct Range {
  int64_t lo = INT64_MAX, hi = 0;
  double mean = 0;
};

Range sample(double mean, double ratio, RangeRatioStyle style) {
  core::Rng rng(3);
  Range r;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const int64_t v = draw_length_tokens(rng, mean, 0, ratio, style);
    r.lo = std::min(r.lo, v);
    r.hi = std::max(r.hi, v);
    r.mean += static_cast<double>(v) / n;
  }
  return r;
}

TEST(RangeRatio, VllmIsSymmetricAroundTheLength) {
  auto r = sample(1000, 0.25, RangeRatioStyle::kVllm);  // [750, 1250]
  EXPECT_EQ(r.lo, 750);
  EXPECT_EQ(r.hi, 1250);
  EXPECT_NEAR(r.mean, 1000, 5);
}

TEST(RangeRatio, VllmWindowIsFloorToCeil) {
  auto r = sample(10, 0.25, RangeRatioStyle::kVllm);  // [floor(7.5), ceil(12.5)], as vLLM and AIPerf
  EXPECT_EQ(r.lo, 7);
  EXPECT_EQ(r.hi, 13);
}

TEST(RangeRatio, SglangIsBelowTheLength) {
  auto r = sample(1000, 0.25, RangeRatioStyle::kSglang);  // [250, 1000]
  EXPECT_EQ(r.lo, 250);
  EXPECT_EQ(r.hi, 1000);
  EXPECT_NEAR(r.mean, 625, 5);
}

TEST(RangeRatio, ZeroSpreadAndTinyLengthsStayPositive) {
  EXPECT_EQ(sample(128, 0, RangeRatioStyle::kVllm).lo, 128);
  EXPECT_EQ(sample(128, 0, RangeRatioStyle::kVllm).hi, 128);
  EXPECT_EQ(sample(2, 0.9, RangeRatioStyle::kVllm).lo, 1);
  EXPECT_EQ(sample(1, 0.001, RangeRatioStyle::kSglang).lo, 1);
}

TEST(RangeRatio, NoRatioFollowsAiperfNormalRule) {
  core::Rng rng(5);
  EXPECT_EQ(draw_length_tokens(rng, 99.6, 0, -1, RangeRatioStyle::kVllm), 100);  // round(mean)
  for (int i = 0; i < 1000; ++i) EXPECT_GE(draw_length_tokens(rng, 3, 10, -1, RangeRatioStyle::kVllm), 1);
}

}  // namespace
}  // namespace servebench::dataset
