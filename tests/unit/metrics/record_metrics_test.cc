// Per-record metric definitions (AIPerf §5.2) on hand-built records with exact timestamps.
#include "metrics/record_metrics.h"

#include <cmath>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

#include "unit/metrics/record_fixtures.h"

namespace servebench::metrics {
namespace {

using servebench::testing::make_error_record;
using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

constexpr int64_t kMs = 1'000'000;

RecordValues values_of(const record::RequestRecord& r) {
  RecordValues v;
  compute_record_metrics(r, &v);
  return v;
}

TEST(RecordMetricsTest, StreamedLatencies) {
  // start 1 s, first content at +40 ms, then gaps 10, 12, 11 ms → 4 content chunks, 1 token each.
  StreamSpec s;
  s.start_ns = 1000 * kMs;
  s.ttft_ns = 40 * kMs;
  s.gaps_ns = {10 * kMs, 12 * kMs, 11 * kMs};
  s.input_tokens = 200;
  auto v = values_of(make_stream_record(0, s));
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kTtft), 40 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kTtst), 10 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kRequestLatency), 73 * kMs);  // last content, not usage
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kDecodeDuration), 33 * kMs);
  // ITL = (latency - TTFT) / (OSL - 1) = 33 ms / 3.
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kItl), 11 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOutputTpsPerUser), 1e9 / (11.0 * kMs));
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOsl), 4);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kE2eOutputTps), 4 / 0.073);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kPrefillTpsPerUser), 200 / 0.040);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kStreamSetupLatency), 1 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kStreamPrefillLatency), 39 * kMs);
  EXPECT_FALSE(v.has(RecordMetric::kReasoningTokenCount));
  EXPECT_FALSE(v.has(RecordMetric::kErrorIsl));
  EXPECT_EQ(v.last_content_ns, 1073 * kMs);
}

TEST(RecordMetricsTest, ReasoningSeparatesTtftFromTtfo) {
  // Two reasoning chunks (80 ms, +15 ms) before the first output chunk (+15 ms).
  StreamSpec s;
  s.start_ns = 0 + 1;
  s.ttft_ns = 80 * kMs;
  s.gaps_ns = {15 * kMs, 15 * kMs, 15 * kMs};
  s.reasoning_chunks = 2;
  auto v = values_of(make_stream_record(0, s));
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kTtft), 80 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kTtfo), 110 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kReasoningTokenCount), 2);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOutputTokenCount), 2);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOsl), 4);  // OSL includes reasoning tokens
}

TEST(RecordMetricsTest, MultiTokenChunksItlAndPerTokenItl) {
  // Chunks of 1, 4, 4 tokens, 20 ms apart: OSL 9, ITL = 40 ms / 8 = 5 ms; per-token ITL gives
  // 8 samples of 20/4 = 5 ms; ICL gives 2 samples of 20 ms.
  StreamSpec s;
  s.ttft_ns = 35 * kMs;
  s.gaps_ns = {20 * kMs, 20 * kMs};
  s.chunk_tokens = {1, 4, 4};
  auto r = make_stream_record(0, s);
  auto v = values_of(r);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOsl), 9);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kItl), 5 * kMs);
  std::vector<double> icl, ptl;
  append_inter_chunk_latencies(r, &icl);
  append_per_token_itl(r, &ptl);
  ASSERT_EQ(icl.size(), 2u);
  EXPECT_DOUBLE_EQ(icl[0], 20 * kMs);
  ASSERT_EQ(ptl.size(), 8u);
  for (double x : ptl) EXPECT_DOUBLE_EQ(x, 5 * kMs);
}

// --per-chunk-usage: the first chunk's server-reported count (4 of OSL 12) comes off the divisor;
// an inconsistent count (0, or >= OSL) falls back to OSL - 1, as AIPerf.
TEST(RecordMetricsTest, ItlSubtractsTheFirstChunksReportedTokens) {
  StreamSpec s;
  s.ttft_ns = 30 * kMs;
  s.gaps_ns = {16 * kMs, 16 * kMs};
  s.chunk_tokens = {4, 4, 4};
  auto r = make_stream_record(0, s);
  EXPECT_DOUBLE_EQ(values_of(r).get(RecordMetric::kItl), 32.0 * kMs / 11);
  r.usage.first_content_chunk_tokens = 4;
  auto v = values_of(r);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kItl), 4 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOutputTpsPerUser), 250);
  for (int64_t bad : {0, 12, 13}) {
    r.usage.first_content_chunk_tokens = bad;
    EXPECT_DOUBLE_EQ(values_of(r).get(RecordMetric::kItl), 32.0 * kMs / 11) << bad;
  }
}

TEST(RecordMetricsTest, PerTokenItlCarriesZeroTokenChunkGap) {
  StreamSpec s;
  s.ttft_ns = 10 * kMs;
  s.gaps_ns = {6 * kMs, 4 * kMs};
  s.chunk_tokens = {1, 0, 2};
  std::vector<double> ptl;
  append_per_token_itl(make_stream_record(0, s), &ptl);
  ASSERT_EQ(ptl.size(), 2u);  // the 0-token chunk's 6 ms joins the next gap: 10 ms / 2
  EXPECT_DOUBLE_EQ(ptl[0], 5 * kMs);
}

TEST(RecordMetricsTest, SingleTokenHasNoItl) {
  StreamSpec s;
  s.gaps_ns = {};
  auto v = values_of(make_stream_record(0, s));
  EXPECT_TRUE(v.has(RecordMetric::kTtft));
  EXPECT_FALSE(v.has(RecordMetric::kTtst));
  EXPECT_FALSE(v.has(RecordMetric::kItl));  // needs OSL >= 2
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kDecodeDuration), 0);
}

TEST(RecordMetricsTest, NonStreamingHasLatencyButNoTokenTiming) {
  StreamSpec s;
  s.streaming = false;
  s.ttft_ns = 90 * kMs;
  s.chunk_tokens = {12};
  auto v = values_of(make_stream_record(0, s));
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kRequestLatency), 90 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOsl), 12);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kE2eOutputTps), 12 / 0.090);
  EXPECT_FALSE(v.has(RecordMetric::kTtft));
  EXPECT_FALSE(v.has(RecordMetric::kItl));
  EXPECT_FALSE(v.has(RecordMetric::kTtfo));
}

TEST(RecordMetricsTest, UsageDiffsAndOslMismatch) {
  StreamSpec s;
  s.gaps_ns = {kMs, kMs, kMs};  // OSL 4
  s.input_tokens = 100;
  s.requested_output_tokens = 100;
  auto r = make_stream_record(0, s);
  r.usage.prompt_tokens = 115;     // 15 % off → discrepancy
  r.usage.completion_tokens = 4;
  auto v = values_of(r);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kUsagePromptDiffPct), 15);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kUsageCompletionDiffPct), 0);
  EXPECT_TRUE(v.usage_discrepancy);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOslMismatchDiffPct), -96);  // signed
  EXPECT_TRUE(v.osl_mismatch);  // |4 - 100| > min(5, 50)

  r.usage.prompt_tokens = 109;  // 9 %: below the 10 % threshold
  r.requested_output_tokens = 4;
  v = values_of(r);
  EXPECT_FALSE(v.usage_discrepancy);
  EXPECT_FALSE(v.osl_mismatch);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kOslMismatchDiffPct), 0);
}

TEST(RecordMetricsTest, OslMismatchThresholdCapsAtFiftyTokens) {
  StreamSpec s;
  s.chunk_tokens = {1940};  // requested 2000: 60 tokens short; 5 % would allow 100, cap is 50
  s.requested_output_tokens = 2000;
  EXPECT_TRUE(values_of(make_stream_record(0, s)).osl_mismatch);
  s.chunk_tokens = {1960};  // 40 short: within 50
  EXPECT_FALSE(values_of(make_stream_record(0, s)).osl_mismatch);
}

TEST(RecordMetricsTest, FailedRequestOnlyHasErrorIsl) {
  auto r = make_error_record(0, 5 * kMs, record::ErrorKind::kHttpStatus, 500, "boom");
  auto v = values_of(r);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kErrorIsl), 120);
  for (size_t i = 0; i < kNumRecordMetrics; ++i) {
    if (static_cast<RecordMetric>(i) != RecordMetric::kErrorIsl) {
      EXPECT_TRUE(std::isnan(v.v[i]));
    }
  }
  auto c = make_error_record(0, 5 * kMs, record::ErrorKind::kCancelled, 0, "cancelled");
  EXPECT_FALSE(values_of(c).has(RecordMetric::kErrorIsl));  // dropped (grace) is not an error
  c.cancel_reason = record::CancelReason::kRate;  // --request-cancellation-rate: an error (AIPerf)
  EXPECT_DOUBLE_EQ(values_of(c).get(RecordMetric::kErrorIsl), 120);
}

TEST(RecordMetricsTest, ErrorCode) {
  auto http = make_error_record(0, kMs, record::ErrorKind::kHttpStatus, 503, "busy");
  EXPECT_EQ(error_code(http), 503);
  auto reset = make_error_record(0, kMs, record::ErrorKind::kStreamReset, 200, "reset");
  EXPECT_EQ(error_code(reset), 0);  // the 200 was fine; the stream broke later
  auto cancelled = make_error_record(0, kMs, record::ErrorKind::kCancelled, 0, "grace");
  EXPECT_EQ(error_code(cancelled), 499);
  // Headers (200) had arrived before the cancellation: still 499.
  auto cancelled_after_headers = make_error_record(0, kMs, record::ErrorKind::kCancelled, 200, "rate");
  cancelled_after_headers.cancel_reason = record::CancelReason::kRate;
  EXPECT_EQ(error_code(cancelled_after_headers), 499);
  auto connect = make_error_record(0, kMs, record::ErrorKind::kConnect, 0, "refused");
  EXPECT_EQ(error_code(connect), 0);
}

TEST(RecordMetricsTest, ItemOutputsEndAtResponseCompleteAndHaveNoTokenMetrics) {
  // An embeddings-like record: no content chunks, output items counted, output text empty.
  record::RequestRecord r;
  r.request_start_ns = 100 * kMs;
  r.first_byte_ns = 103 * kMs;
  r.response_complete_ns = 106 * kMs;
  r.end_ns = 106 * kMs;
  r.input_tokens = 40;
  r.output_tokens = 0;
  r.output_items = 3;
  r.chunks.push_back({106 * kMs, 0, 0, record::ChunkKind::kEmpty, 0});
  auto v = values_of(r);  // capabilities taken from the record
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kRequestLatency), 6 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kIsl), 40);
  EXPECT_FALSE(v.has(RecordMetric::kOsl));
  EXPECT_FALSE(v.has(RecordMetric::kE2eOutputTps));
  EXPECT_FALSE(v.has(RecordMetric::kTtft));
  // A token endpoint's record without content keeps AIPerf's definition: no latency.
  r.output_items = -1;
  EXPECT_FALSE(values_of(r).has(RecordMetric::kRequestLatency));
  EXPECT_TRUE(values_of(r).has(RecordMetric::kOsl));  // OSL 0 is still reported
}

TEST(RecordMetricsTest, ScheduleAnchored) {
  StreamSpec s;
  s.intended_ns = 1000 * kMs;
  s.start_ns = 1004 * kMs;  // sent 4 ms late
  s.ttft_ns = 20 * kMs;
  s.gaps_ns = {5 * kMs};
  auto v = values_of(make_stream_record(0, s));
  EXPECT_DOUBLE_EQ(v.schedule_lag_ns, 4 * kMs);
  EXPECT_DOUBLE_EQ(v.ttft_from_intended_ns, 24 * kMs);
  EXPECT_DOUBLE_EQ(v.latency_from_intended_ns, 29 * kMs);
  EXPECT_DOUBLE_EQ(v.get(RecordMetric::kTtft), 20 * kMs);
}

TEST(RecordMetricsTest, SlotSubsetEqualsTheFullComputation) {
  StreamSpec s;
  s.intended_ns = 1000 * kMs;
  s.start_ns = 1004 * kMs;
  s.ttft_ns = 20 * kMs;
  s.gaps_ns = {5 * kMs, 7 * kMs};
  record::RequestRecord items;  // embeddings-like: no TTFT, a latency
  items.request_start_ns = 100 * kMs;
  items.first_byte_ns = 103 * kMs;
  items.response_complete_ns = items.end_ns = 106 * kMs;
  items.output_items = 2;
  auto cancelled = make_error_record(0, 5 * kMs, record::ErrorKind::kCancelled, 0, "grace");
  const std::vector<record::RequestRecord> records = {
      make_stream_record(0, s), make_error_record(1, 5 * kMs, record::ErrorKind::kHttpStatus, 500, "x"),
      cancelled, items};
  const RecordMetric slots[] = {RecordMetric::kTtft, RecordMetric::kItl,
                                RecordMetric::kRequestLatency, RecordMetric::kScheduleLag,
                                RecordMetric::kErrorIsl};
  int applied = 0;
  for (const auto& r : records) {
    const RecordValues full = values_of(r);
    RecordValues part;
    part.v.fill(-1);  // every asked slot must be written, NaN included
    compute_record_metrics(r, &part, slots, std::size(slots));
    for (RecordMetric m : slots) {
      const double a = full.get(m), b = part.get(m);
      EXPECT_TRUE(std::isnan(a) ? std::isnan(b) : a == b) << static_cast<int>(m);
      applied += !std::isnan(a);
    }
  }
  EXPECT_GE(applied, 6);  // the records exercise values, not only NaNs
}

}  // namespace
}  // namespace servebench::metrics
