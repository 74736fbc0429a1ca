// Per-request metrics: the slots that hold one value per request (AIPerf's record metrics,
// aiperf-inventory.md §5.2, plus servebench's schedule-anchored values), the facts of a record
// their value functions read, and the per-chunk series. What each slot means — tag, unit,
// formula, the capabilities it needs — is its row in the metric table (metric_info.h); this
// header only names the slots and computes them.
//
// Content chunks (record::is_content_chunk) are the endpoints of every latency. A record's
// response ends at its last content chunk (AIPerf's definition); a record without content
// chunks whose endpoint produces no tokens (embeddings, rankings: output_items >= 0, or
// capabilities without kCapProducesTokens) ends at response_complete_ns instead, so such
// endpoints get request_latency and throughput. A failed request only gets error_isl and
// schedule_lag.
//
// Thread safety: pure functions.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/capabilities.h"
#include "record/request_record.h"

namespace servebench::metrics {

// The content-chunk predicate is record::is_content_chunk (one definition for the tree).
using record::is_content_chunk;

// Column index of each per-request value. The first kCount are AIPerf's (in the order
// profile_export.jsonl writes them); the slots after kCount are servebench's own.
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
  kUsagePromptCacheWriteTokens,
  kUsagePromptCacheMissTokens,
  kUsagePromptAudioTokens,
  kUsageCompletionAudioTokens,
  kUsageAcceptedPredictionTokens,
  kUsageRejectedPredictionTokens,
  kUsageToolUsePromptTokens,
  kUsagePromptAudioSeconds,
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
  kHttpReqBlocked,
  kHttpReqDnsLookup,
  kHttpReqConnecting,
  kHttpReqTlsHandshaking,
  kHttpReqConnectionOverhead,
  kHttpReqTotal,
  kHttpReqChunksReceived,
  kHttpReqChunksSent,
  kSpecDecodeAcceptanceLength,
  kSpecDecodeDraftAcceptanceRate,
  kSpecDecodeAcceptedPerVerified,
  kSpecDecodeSteps,
  kSpecDecodeAcceptedDraftTokens,
  kSpecDecodeDraftTokens,
  kVideoInferenceTime,
  kVideoPeakMemory,
  kNumImages,
  kImageThroughput,
  kImageLatency,
  kCount,
  // servebench's (JSON "servebench" key; the JSONL writes them there too).
  kScheduleLag = kCount,  // request_start - intended, every started request
  kTtftFromIntended,      // first content chunk - intended
  kLatencyFromIntended,   // response end - intended
  kPrefixHitBlocks,       // weka_trace: theoretical prefix-cache hit blocks of the turn
  kPrefixTotalBlocks,     // weka_trace: the turn's hash blocks
  // AIPerf's, computed at summary time there, so not in its per-record lines either.
  kCreditToStartLatency,  // request_start - credit_issued, every started request
  kEffectiveLatency,      // end - credit_issued, every started request
  kSlotEnd,
  kNone = 255,
};
// AIPerf's record metrics: the slots profile_export.jsonl writes under "metrics".
inline constexpr size_t kNumRecordMetrics = static_cast<size_t>(RecordMetric::kCount);
// Every slot, servebench's included.
inline constexpr size_t kNumRecordSlots = static_cast<size_t>(RecordMetric::kSlotEnd);

// AIPerf tag of a slot ("time_to_first_token", ...), from the metric table.
const char* record_metric_tag(RecordMetric m);

// Thresholds AIPerf uses for its warning counters (env-tunable there, constants here).
inline constexpr double kUsageDiffThresholdPct = 10.0;   // usage_discrepancy_count
inline constexpr double kOslMismatchPctThreshold = 5.0;  // osl_mismatch_count
inline constexpr double kOslMismatchMaxTokens = 50.0;

// What the value functions of the metric table read: one scan of the record's chunks.
struct RecordFacts {
  const record::RequestRecord* r = nullptr;
  // Steady ns of the first, second, first non-reasoning and last content chunk; 0 = none.
  int64_t first_ns = 0;
  int64_t second_ns = 0;
  int64_t first_output_ns = 0;
  int64_t last_ns = 0;
  // The response end (see the file comment); 0 when the response has none.
  int64_t end_ns = 0;
  bool has_isl = false;
  bool has_osl = false;
  double osl = 0;  // output + reasoning tokens

  bool streamed_content() const { return r->streaming && first_ns != 0; }
  double ttft() const { return static_cast<double>(first_ns - r->request_start_ns); }
  double latency() const { return static_cast<double>(end_ns - r->request_start_ns); }
};

RecordFacts record_facts(const record::RequestRecord& r,
                         core::Capabilities caps = core::kTextGenerationCaps);

struct RecordValues {
  // NaN = the metric does not apply to this record.
  std::array<double, kNumRecordSlots> v;
  // The response end (RecordFacts::end_ns), 0 if none.
  int64_t last_content_ns = 0;
  // Copies of the servebench slots, for the JSONL writer.
  double ttft_from_intended_ns = NAN;
  double latency_from_intended_ns = NAN;
  double schedule_lag_ns = NAN;
  bool usage_discrepancy = false;  // any usage_*_diff_pct above kUsageDiffThresholdPct
  bool osl_mismatch = false;       // |OSL - requested| > min(5 %, 50 tokens)

  double get(RecordMetric m) const { return v[static_cast<size_t>(m)]; }
  bool has(RecordMetric m) const { return !std::isnan(get(m)); }
};

// Computes every slot of `r` through the metric table's value functions: success rows for a
// successful record, error-only rows (error_isl) for a failed one that was not dropped, and
// kAllOutcomes rows (schedule_lag) for every record. Slots whose row needs a capability
// missing from `caps` are left NaN.
void compute_record_metrics(const record::RequestRecord& r, RecordValues* out,
                            core::Capabilities caps);
// Same, with the capabilities the record itself shows (capabilities_of): for writers that see
// one record at a time, such as profile_export.jsonl.
void compute_record_metrics(const record::RequestRecord& r, RecordValues* out);

// The values of `n` slots only, as compute_record_metrics(r, out) would give them (with the
// record's own capabilities); every other slot, the flags and the *_ns copies are left unset.
// For readers that want a few values per record (the live view), at a fraction of the cost.
void compute_record_metrics(const record::RequestRecord& r, RecordValues* out,
                            const RecordMetric* slots, size_t n);

// Whether compute_record_metrics gives the same last_content_ns and the same values of the
// `n` slots under capabilities `a` and `b` (for one record): the end depends on the capabilities
// only through kCapProducesTokens, and a slot's value only through whether it applies. A writer
// handed values computed under the run's capabilities reuses them when this holds.
bool same_record_values(core::Capabilities a, core::Capabilities b, const RecordMetric* slots,
                        size_t n);

// The capabilities a record shows: text generation, except that a record whose endpoint counts
// non-token outputs (output_items >= 0: embedding vectors, ranked documents) produces no tokens,
// streams none and has no reasoning; plus media for a record that sent images, and a produced
// video for one with server-reported video facts.
core::Capabilities capabilities_of(const record::RequestRecord& r);

// Sets out->usage_discrepancy and out->osl_mismatch of a successful record from its computed
// slots.
void set_warning_flags(const RecordFacts& f, RecordValues* out);

// Calls sink(gap_ns) for each gap between consecutive content chunks of a successful streamed
// record (AIPerf's inter_chunk_latency list).
template <typename Sink>
void for_each_inter_chunk_latency(const record::RequestRecord& r, Sink&& sink) {
  if (!r.ok() || !r.streaming) return;
  int64_t prev = 0;
  for (const record::Chunk& c : r.chunks) {
    if (!record::is_content_chunk(c.kind)) continue;
    if (prev != 0) sink(static_cast<double>(c.recv_ns - prev));
    prev = c.recv_ns;
  }
}

// Per-token ITL (ours): every content chunk after the first that carries t > 0 tokens
// (Chunk::tokens) gives t samples of gap / t: sink(value, t). Chunks with unknown token counts
// (-1) count as one token; a chunk of 0 tokens extends the next gap instead of losing its time.
template <typename Sink>
void for_each_per_token_itl(const record::RequestRecord& r, Sink&& sink) {
  if (!r.ok() || !r.streaming) return;
  int64_t prev = 0;
  for (const record::Chunk& c : r.chunks) {
    if (!record::is_content_chunk(c.kind)) continue;
    if (prev == 0) {
      prev = c.recv_ns;
      continue;
    }
    const int32_t tokens = c.tokens < 0 ? 1 : c.tokens;
    if (tokens == 0) continue;
    sink(static_cast<double>(c.recv_ns - prev) / tokens, static_cast<size_t>(tokens));
    prev = c.recv_ns;
  }
}

// Appends the gaps between consecutive content chunks (ns) of a successful streamed record.
void append_inter_chunk_latencies(const record::RequestRecord& r, std::vector<double>* out);

// Appends the per-token ITL samples of `r` (for_each_per_token_itl, each repeated t times).
void append_per_token_itl(const record::RequestRecord& r, std::vector<double>* out);

// True when append_per_token_itl(r) would append exactly what append_inter_chunk_latencies(r)
// appends: every content chunk after the first carries one token (or an unknown count).
bool per_token_itl_equals_icl(const record::RequestRecord& r);

// The error `code` AIPerf exports for a failed request: the HTTP status when the status itself
// was the failure (non-2xx), 499 for a cancelled request, 0 (null) otherwise: a stream reset or
// an error event after "200 OK" is not an HTTP error.
int32_t error_code(const record::RequestRecord& r);

}  // namespace servebench::metrics
