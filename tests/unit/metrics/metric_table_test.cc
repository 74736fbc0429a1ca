// The metric table's invariants: unique tags, one owner row per per-request slot, consistent
// flags, and capability gating as AIPerf's flags do it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "metrics/metric_info.h"

namespace servebench::metrics {
namespace {

TEST(MetricTableTest, TagsAreUniqueAndEverySlotHasOneOwner) {
  size_t n = 0;
  const MetricInfo* table = all_metrics(&n);
  std::set<std::string_view> tags;
  std::set<int> owned;
  for (size_t i = 0; i < n; ++i) {
    const MetricInfo& m = table[i];
    EXPECT_TRUE(tags.insert(m.tag).second) << m.tag;
    EXPECT_EQ(find_metric(m.tag), &m);
    EXPECT_GT(m.display_divisor, 0) << m.tag;
    switch (m.aggregate) {
      case Aggregate::kFormula:
        EXPECT_NE(m.formula, nullptr) << m.tag;
        break;
      case Aggregate::kSum:
        EXPECT_NE(slot_metric(m.slot), nullptr) << m.tag;
        break;
      case Aggregate::kDistribution:
        if (m.kind == MetricKind::kChunkList) {
          EXPECT_NE(m.chunks, nullptr) << m.tag;
          if (!m.mirrors.empty()) {
            ASSERT_NE(find_metric(m.mirrors), nullptr) << m.tag;
            EXPECT_LT(find_metric(m.mirrors), &m) << "a mirrored list comes first";
            EXPECT_NE(m.mirrors_while, nullptr) << m.tag;
          }
        } else if (m.has(kAdjusted)) {
          EXPECT_EQ(m.tag, "adj_" + std::string(slot_metric(m.slot)->tag));
        } else {
          ASSERT_NE(m.value, nullptr) << m.tag;
          EXPECT_TRUE(owned.insert(static_cast<int>(m.slot)).second) << m.tag;
          EXPECT_EQ(slot_metric(m.slot), &m);
        }
        break;
    }
    if (m.has(kServebench)) {
      EXPECT_TRUE(m.has(kNoConsole) && m.has(kNoCsv)) << m.tag << ": servebench rows are JSON only";
    }
  }
  EXPECT_EQ(owned.size(), kNumRecordSlots);
  EXPECT_STREQ(record_metric_tag(RecordMetric::kTtft), "time_to_first_token");
  EXPECT_STREQ(record_metric_tag(RecordMetric::kScheduleLag), "schedule_lag");
}

TEST(MetricTableTest, CapabilitiesGateRowsAsAiperfFlagsDo) {
  const core::Capabilities embeddings = core::kCapTokenizesInput;
  EXPECT_TRUE(find_metric("request_latency")->applies_to(embeddings));
  EXPECT_TRUE(find_metric("input_sequence_length")->applies_to(embeddings));
  EXPECT_TRUE(find_metric("request_throughput")->applies_to(embeddings));
  EXPECT_FALSE(find_metric("time_to_first_token")->applies_to(embeddings));
  EXPECT_FALSE(find_metric("inter_token_latency")->applies_to(embeddings));
  EXPECT_FALSE(find_metric("output_sequence_length")->applies_to(embeddings));
  EXPECT_FALSE(find_metric("output_token_throughput")->applies_to(embeddings));
  // Non-streamed token endpoint: OSL and e2e throughput, no TTFT.
  const core::Capabilities no_stream = core::kTextGenerationCaps & ~core::kCapStreams;
  EXPECT_TRUE(find_metric("e2e_output_token_throughput")->applies_to(no_stream));
  EXPECT_FALSE(find_metric("time_to_first_token")->applies_to(no_stream));
  EXPECT_EQ(find_metric("reasoning_token_count")->needs(),
            core::kCapProducesTokens | core::kCapReasoning);
  for (const char* tag : {"time_to_first_token", "request_latency", "output_sequence_length"}) {
    EXPECT_TRUE(find_metric(tag)->applies_to(core::kTextGenerationCaps)) << tag;
  }
}

TEST(MetricTableTest, UsageRowsAreAiperfsUsageGroup) {
  // Every usage count AIPerf exports, its run total, in the Usage console table.
  for (const char* count :
       {"prompt_tokens", "completion_tokens", "total_tokens", "reasoning_tokens",
        "prompt_cache_read_tokens", "prompt_cache_write_tokens", "prompt_cache_miss_tokens",
        "prompt_audio_tokens", "completion_audio_tokens", "accepted_prediction_tokens",
        "rejected_prediction_tokens", "tool_use_prompt_tokens", "prompt_audio_seconds"}) {
    const MetricInfo* row = find_metric(std::string("usage_") + count);
    const MetricInfo* sum = find_metric(std::string("total_usage_") + count);
    ASSERT_NE(row, nullptr) << count;
    ASSERT_NE(sum, nullptr) << count;
    EXPECT_EQ(row->group, ConsoleGroup::kUsage) << count;
    EXPECT_EQ(sum->group, ConsoleGroup::kUsage) << count;
    EXPECT_FALSE(row->has(kNoConsole)) << count;
    EXPECT_EQ(sum->aggregate, Aggregate::kSum) << count;
    EXPECT_EQ(sum->slot, row->slot) << count;
    EXPECT_EQ(sum->needs(), row->needs()) << count << ": a total has its row's flags";
    EXPECT_GT(row->display_order, 0) << count;
    EXPECT_LT(row->display_order, sum->display_order) << count;
  }
  const MetricInfo* pct = find_metric("overall_usage_prompt_cache_read_pct");
  ASSERT_NE(pct, nullptr);
  EXPECT_EQ(pct->group, ConsoleGroup::kUsage);
  EXPECT_EQ(pct->display_unit, "%");
  // AIPerf keeps the diffs and the discrepancy counter out of the console.
  for (const char* tag : {"usage_prompt_tokens_diff_pct", "usage_completion_tokens_diff_pct",
                          "usage_reasoning_tokens_diff_pct", "usage_discrepancy_count"}) {
    EXPECT_TRUE(find_metric(tag)->has(kNoConsole)) << tag;
  }
  // AIPerf's flags: the prompt count needs token input, the completion side token output, the
  // audio counts media; cache counts apply to every type that reports them.
  EXPECT_EQ(find_metric("usage_prompt_tokens")->needs(), core::kCapTokenizesInput);
  EXPECT_EQ(find_metric("usage_completion_tokens")->needs(), core::kCapProducesTokens);
  EXPECT_EQ(find_metric("usage_reasoning_tokens")->needs(), core::kCapProducesTokens);
  EXPECT_EQ(find_metric("usage_prompt_cache_read_tokens")->needs(), core::kCapNone);
  EXPECT_EQ(find_metric("usage_prompt_audio_tokens")->needs(), core::kCapMedia);
  EXPECT_TRUE(find_metric("usage_prompt_cache_read_tokens")->applies_to(core::kCapTokenizesInput));
  EXPECT_EQ(find_metric("usage_prompt_audio_seconds")->display_unit, "sec");
  // Default-group rows stay in the main table.
  EXPECT_EQ(find_metric("time_to_first_token")->group, ConsoleGroup::kDefault);
  EXPECT_EQ(console_group_name(ConsoleGroup::kUsage), "Usage");
}

TEST(MetricTableTest, OverallCacheReadPctIsTokenWeighted) {
  const MetricInfo* pct = find_metric("overall_usage_prompt_cache_read_pct");
  ScalarInputs in;
  ScalarValue v;
  EXPECT_FALSE(pct->formula(in, &v)) << "no usage: not reported";
  const auto slot = [](RecordMetric m) { return static_cast<size_t>(m); };
  in.slot_count[slot(RecordMetric::kUsagePromptTokens)] = 2;
  in.slot_sum[slot(RecordMetric::kUsagePromptTokens)] = 1000;  // e.g. 100 and 900 tokens
  EXPECT_FALSE(pct->formula(in, &v)) << "prompt counts without cache counts: not reported";
  in.slot_count[slot(RecordMetric::kUsagePromptCacheReadTokens)] = 2;
  in.slot_sum[slot(RecordMetric::kUsagePromptCacheReadTokens)] = 250;  // 0 and 250 hits
  ASSERT_TRUE(pct->formula(in, &v));
  EXPECT_DOUBLE_EQ(v.value, 25.0) << "Σ hits / Σ prompt, not the mean of per-request shares";
}

}  // namespace
}  // namespace servebench::metrics
