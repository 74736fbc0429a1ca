// report.html's request columns from values the summary computed under the run's capabilities
// must equal the columns computed from the record alone.
#include "report_html/request_columns.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "unit/metrics/record_fixtures.h"

namespace servebench::report_html {
namespace {

using servebench::testing::make_error_record;
using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

std::vector<record::RequestRecord> records() {
  std::vector<record::RequestRecord> out;
  for (uint64_t i = 0; i < 40; ++i) {
    StreamSpec s;
    s.intended_ns = i % 3 == 0 ? 0 : 900'000'000 + static_cast<int64_t>(i);
    s.start_ns = 1'000'000'000 + static_cast<int64_t>(i) * 7'000'000;
    s.ttft_ns = 10'000'000 + static_cast<int64_t>(i) * 1'000'003;
    s.gaps_ns.assign(i % 5, 3'000'000 + static_cast<int64_t>(i) * 11);
    s.chunk_tokens.assign(1 + i % 5, static_cast<int32_t>(1 + i % 3));
    s.reasoning_chunks = i % 4 == 0 ? 1 : 0;
    s.streaming = i % 6 != 5;
    record::RequestRecord r = make_stream_record(i, s);
    if (i % 7 == 3) r.output_items = 4;   // an endpoint with non-token outputs
    if (i % 9 == 2) r.input_images = 1;   // media
    if (i % 10 == 1) r.phase = record::Phase::kWarmup;
    out.push_back(std::move(r));
  }
  out.push_back(make_error_record(40, 1'500'000'000, record::ErrorKind::kHttpStatus, 500, "busy"));
  return out;
}

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
}

TEST(RequestColumns, GivenValuesGiveTheColumnsComputedFromTheRecord) {
  const core::Capabilities chat =
      core::kTextGenerationCaps | core::kCapMedia | core::kCapPerChunkUsage;
  for (core::Capabilities caps :
       {chat, core::kTextGenerationCaps, core::kTextGenerationCaps & ~core::kCapStreams,
        core::kTextGenerationCaps & ~core::kCapProducesTokens,
        core::kCapTokenizesInput | core::kCapMedia}) {
    RequestColumns given, own;
    for (const record::RequestRecord& r : records()) {
      metrics::RecordValues v;
      metrics::compute_record_metrics(r, &v, caps);
      add_record(r, &given, {}, &v, caps);
      add_record(r, &own);
    }
    EXPECT_EQ(given.start_ns, own.start_ns);
    EXPECT_EQ(given.end_ns, own.end_ns);
    EXPECT_EQ(given.first_ns, own.first_ns);
    EXPECT_EQ(given.warmup_records, own.warmup_records);
    for (size_t i = 0; i < kNumColumnMetrics; ++i) expect_same_bits(given.values[i], own.values[i]);
  }
}

// A chat run's values (its endpoint adds media and per-chunk usage) are reused for text records.
TEST(RequestColumns, ChatRunValuesAreReusedForTextRecords) {
  const core::Capabilities chat =
      core::kTextGenerationCaps | core::kCapMedia | core::kCapPerChunkUsage;
  EXPECT_TRUE(metrics::same_record_values(chat, core::kTextGenerationCaps, kColumnMetrics,
                                          kNumColumnMetrics));
  EXPECT_FALSE(metrics::same_record_values(core::kTextGenerationCaps & ~core::kCapStreams,
                                           core::kTextGenerationCaps, kColumnMetrics,
                                           kNumColumnMetrics));
  EXPECT_FALSE(metrics::same_record_values(core::kTextGenerationCaps & ~core::kCapProducesTokens,
                                           core::kTextGenerationCaps, kColumnMetrics,
                                           kNumColumnMetrics));
}

}  // namespace
}  // namespace servebench::report_html
