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

}  // namespace
}  // namespace servebench::metrics
