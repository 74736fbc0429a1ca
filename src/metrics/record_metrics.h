// Per-request metrics: the values AIPerf computes for one record (aiperf-inventory.md §5.2),
// plus the schedule-anchored values servebench adds. Base units: ns, tokens, bytes, percent.
//
// Content chunks are the chunks that carry text (kContent, kReasoning, kToolCall); role-only,
// finish-only and usage-only events are excluded from every latency endpoint, as in AIPerf.
// Latency metrics need a streamed response (record.streaming) except request_latency,
// output_sequence_length and e2e_output_token_throughput. A failed request only gets error_isl.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "record/request_record.h"

namespace servebench::metrics {

enum class RecordMetric : uint8_t {
  kTtft,
  kTtst,
  kTtfo,
  kRequestLatency,
  kDecodeDuration,
  kItl,
  kOutputTpsPerUser,
  kE2eOutputTps,
  kPrefillTpsPerUser,
  kIsl,
  kOutputTokenCount,
  kReasoningTokenCount,
  kOsl,
  kUsagePromptTokens,
  kUsageCompletionTokens,
  kUsageTotalTokens,
  kUsageReasoningTokens,
  kUsagePromptCacheReadTokens,
  kUsagePromptDiffPct,
  kUsageCompletionDiffPct,
  kUsageReasoningDiffPct,
  kOslMismatchDiffPct,
  kErrorIsl,
  kStreamSetupLatency,
  kStreamPrefillLatency,
  kHttpReqSending,
  kHttpReqWaiting,
  kHttpReqReceiving,
  kHttpReqDuration,
  kHttpReqDataSent,
  kHttpReqDataReceived,
  kHttpReqConnectionReused,
  kCount,
};
inline constexpr size_t kNumRecordMetrics = static_cast<size_t>(RecordMetric::kCount);

// AIPerf tag of a record metric ("time_to_first_token", ...).
const char* record_metric_tag(RecordMetric m);

// Thresholds AIPerf uses for its warning counters (env-tunable there, constants here).
inline constexpr double kUsageDiffThresholdPct = 10.0;   // usage_discrepancy_count
inline constexpr double kOslMismatchPctThreshold = 5.0;  // osl_mismatch_count
inline constexpr double kOslMismatchMaxTokens = 50.0;

struct RecordValues {
  // NaN = the metric does not apply to this record.
  std::array<double, kNumRecordMetrics> v;
  // Steady ns of the last content chunk (AIPerf's response end), 0 if none.
  int64_t last_content_ns = 0;
  // Ours (NaN when the record has no intended_ns or the value does not apply).
  double ttft_from_intended_ns = NAN;
  double latency_from_intended_ns = NAN;
  double schedule_lag_ns = NAN;  // request_start - intended (any outcome except no start)
  bool usage_discrepancy = false;
  bool osl_mismatch = false;

  double get(RecordMetric m) const { return v[static_cast<size_t>(m)]; }
  bool has(RecordMetric m) const { return !std::isnan(get(m)); }
};

// Computes every applicable metric of `r`.
void compute_record_metrics(const record::RequestRecord& r, RecordValues* out);

// Appends the gaps between consecutive content chunks (ns) of a successful streamed record.
void append_inter_chunk_latencies(const record::RequestRecord& r, std::vector<double>* out);

// Per-token ITL (ours): every content chunk after the first that carries t > 0 tokens
// (Chunk::tokens) contributes t samples of gap / t. Chunks with unknown token counts (-1) are
// counted as one token. Appends nothing for non-streamed or failed records.
void append_per_token_itl(const record::RequestRecord& r, std::vector<double>* out);

// True when append_per_token_itl(r) would append exactly what append_inter_chunk_latencies(r)
// appends: every content chunk after the first carries one token (or an unknown count).
bool per_token_itl_equals_icl(const record::RequestRecord& r);

// The error `code` AIPerf exports for a failed request: the HTTP status when the status itself
// was the failure (non-2xx), 499 for a cancelled request, 0 (null) otherwise: a stream reset or
// an error event after "200 OK" is not an HTTP error.
int32_t error_code(const record::RequestRecord& r);

// True for chunk kinds that carry text.
inline bool is_content_chunk(record::ChunkKind k) {
  return k == record::ChunkKind::kContent || k == record::ChunkKind::kReasoning ||
         k == record::ChunkKind::kToolCall;
}

}  // namespace servebench::metrics
