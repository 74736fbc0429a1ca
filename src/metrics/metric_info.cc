// The metric table. Headers, units, flags and console order follow AIPerf's registry
// (src/aiperf/metrics/types/*.py); formulas are aiperf-inventory.md §5.2-5.4 and
// docs/metrics.md. Row order = Summary::metrics order = JSON key order.
#include "metrics/metric_info.h"

#include <algorithm>
#include <array>

#include "metrics/metric_formulas.h"
#include "metrics/sample_series.h"
#include "metrics/aiperf013_rows.h"
#include "metrics/http_trace_rows.h"
#include "metrics/prefix_cache_rows.h"
#include "metrics/media_rows.h"
#include "metrics/spec_decode_rows.h"
#include "metrics/usage_rows.h"

namespace servebench::metrics {
namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerSec = 1e9;
using K = MetricKind;
using A = Aggregate;
using S = RecordMetric;
using F = RecordFacts;
using I = ScalarInputs;

constexpr uint32_t kStreamTokens = kStreamingOnly | kProducesTokensOnly;
constexpr uint32_t kHidden = kNoConsole | kNoCsv;
constexpr uint32_t kOurs = kServebench | kHidden;

using namespace formulas;  // the value functions and formulas (metric_formulas.h)

constexpr MetricInfo rec(std::string_view tag, std::string_view header, std::string_view unit,
                         double div, uint32_t flags, int order, S slot, RecordValueFn fn) {
  MetricInfo m{tag, header, unit, div, K::kRecord, flags, order};
  m.slot = slot;
  m.value = fn;
  return m;
}
// A usage_* row: the server's count, shown in the console's Usage table.
constexpr MetricInfo usage(std::string_view tag, std::string_view header, uint32_t flags,
                           int order, S slot, RecordValueFn fn) {
  MetricInfo m{tag, header, "tokens", 1, K::kRecord, flags | kIntegerValued, order};
  m.slot = slot;
  m.value = fn;
  m.group = ConsoleGroup::kUsage;
  return m;
}
constexpr MetricInfo adj(std::string_view tag, std::string_view header, uint32_t flags, int order,
                         S slot) {
  MetricInfo m{tag, header, "ms", kNsPerMs, K::kRecord, flags | kAdjusted, order};
  m.slot = slot;
  return m;
}
constexpr MetricInfo list(std::string_view tag, std::string_view header, uint32_t flags,
                          ChunkListFn fn) {
  MetricInfo m{tag, header, "ms", kNsPerMs, K::kChunkList, flags, 0};
  m.chunks = fn;
  return m;
}
MetricInfo per_token_list() {
  MetricInfo m = list("per_token_inter_token_latency", "Per-Token Inter Token Latency",
                      kOurs | kStreamTokens, per_token_itl);
  m.mirrors = "inter_chunk_latency";
  m.mirrors_while = per_token_itl_equals_icl;
  return m;
}
constexpr MetricInfo formula(std::string_view tag, std::string_view header, std::string_view unit,
                             double div, K kind, uint32_t flags, int order, FormulaFn fn) {
  MetricInfo m{tag, header, unit, div, kind, flags, order};
  m.aggregate = A::kFormula;
  m.formula = fn;
  return m;
}
constexpr MetricInfo total(std::string_view tag, std::string_view header, uint32_t flags, S slot) {
  MetricInfo m{tag, header, "tokens", 1, K::kDerived, flags | kIntegerValued | kNoConsole, 0};
  m.aggregate = A::kSum;
  m.slot = slot;
  return m;
}

// The sum of a usage_* row over the run (total_usage_*), in the Usage table after the per-request
// rows; flags as the row it sums.
constexpr MetricInfo usage_total(std::string_view tag, std::string_view header, uint32_t flags,
                                 int order, S slot) {
  MetricInfo m{tag, header, "tokens", 1, K::kDerived, flags | kIntegerValued, order};
  m.aggregate = A::kSum;
  m.slot = slot;
  m.group = ConsoleGroup::kUsage;
  return m;
}

constexpr MetricInfo rec_in_group(MetricInfo m) {
  m.group = ConsoleGroup::kUsage;
  return m;
}
constexpr MetricInfo formula_in_group(MetricInfo m) { return rec_in_group(m); }
MetricInfo seconds_total() {
  MetricInfo m{"total_usage_prompt_audio_seconds", "Total Usage Prompt Audio Seconds", "sec",
               kNsPerSec, K::kDerived, kLargerIsBetter | kMediaOnly, 2040};
  m.aggregate = A::kSum;
  m.slot = S::kUsagePromptAudioSeconds;
  m.group = ConsoleGroup::kUsage;
  return m;
}

constexpr uint32_t kTok = kIntegerValued | kNoConsole;
constexpr uint32_t kLib = kLargerIsBetter;
constexpr uint32_t kIn = kTokenizesInputOnly;
constexpr uint32_t kOut = kProducesTokensOnly;
constexpr uint32_t kReason = kProducesTokensOnly | kSupportsReasoning;

const MetricInfo kMetrics[] = {
    // Record metrics (base unit ns / tokens / %), with their error-adjusted companions.
    adj("adj_time_to_first_token", "Adjusted Time to First Token", kStreamTokens, 101, S::kTtft),
    rec("time_to_first_token", "Time to First Token", "ms", kNsPerMs, kStreamTokens, 100, S::kTtft,
        ttft),
    rec("time_to_second_token", "Time to Second Token", "ms", kNsPerMs, kStreamTokens, 200,
        S::kTtst, ttst),
    rec("time_to_first_output_token", "Time to First Output Token", "ms", kNsPerMs, kStreamTokens,
        210, S::kTtfo, ttfo),
    adj("adj_request_latency", "Adjusted Request Latency", kNoFlags, 301, S::kRequestLatency),
    rec("request_latency", "Request Latency", "ms", kNsPerMs, kNoFlags, 300, S::kRequestLatency,
        latency),
    adj("adj_decode_duration", "Adjusted Decode Duration", kStreamTokens, 351, S::kDecodeDuration),
    rec("decode_duration", "Decode Duration", "ms", kNsPerMs, kStreamTokens, 350,
        S::kDecodeDuration, decode),
    adj("adj_inter_token_latency", "Adjusted Inter Token Latency", kStreamTokens, 401, S::kItl),
    rec("inter_token_latency", "Inter Token Latency", "ms", kNsPerMs, kStreamTokens, 400, S::kItl,
        itl),
    list("inter_chunk_latency", "Inter Chunk Latency", kStreamTokens | kNoConsole, icl),
    rec("output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user",
        1, kStreamTokens | kLargerIsBetter, 500, S::kOutputTpsPerUser, output_tps_per_user),
    rec("e2e_output_token_throughput", "E2E Output Token Throughput", "tokens/sec/user", 1,
        kOut | kLargerIsBetter, 510, S::kE2eOutputTps, e2e_tps),
    rec("prefill_throughput_per_user", "Prefill Throughput Per User", "tokens/sec/user", 1,
        kStreamTokens | kIn | kLargerIsBetter | kNoConsole, 0, S::kPrefillTpsPerUser, prefill_tps),
    rec("output_sequence_length", "Output Sequence Length", "tokens", 1,
        kOut | kLargerIsBetter | kIntegerValued, 600, S::kOsl, osl),
    rec("reasoning_token_count", "Reasoning Token Count", "tokens", 1, kReason | kIntegerValued,
        650, S::kReasoningTokenCount, reasoning_tokens),
    rec("input_sequence_length", "Input Sequence Length", "tokens", 1,
        kIn | kLargerIsBetter | kIntegerValued, 700, S::kIsl, isl),
    rec("output_token_count", "Output Token Count", "tokens", 1, kOut | kTok, 0,
        S::kOutputTokenCount, output_tokens),
    // The server's usage counts (AIPerf's usage_* rows, "last non-None" per request; console
    // group Usage, flags and order as AIPerf).
    usage("usage_prompt_tokens", "Usage Prompt Tokens", kIn | kLib, 1000, S::kUsagePromptTokens,
          usage_rows::prompt),
    usage("usage_prompt_cache_read_tokens", "Usage Prompt Cache Read Tokens", kLib, 1010,
          S::kUsagePromptCacheReadTokens, usage_rows::cache_read),
    usage("usage_prompt_cache_write_tokens", "Usage Prompt Cache Write Tokens", kNoFlags, 1015,
          S::kUsagePromptCacheWriteTokens, usage_rows::cache_write),
    usage("usage_prompt_cache_miss_tokens", "Usage Prompt Cache Miss Tokens", kNoFlags, 1017,
          S::kUsagePromptCacheMissTokens, usage_rows::cache_miss),
    usage("usage_prompt_audio_tokens", "Usage Prompt Audio Tokens", kLib | kMediaOnly, 1020,
          S::kUsagePromptAudioTokens, usage_rows::prompt_audio),
    usage("usage_tool_use_prompt_tokens", "Usage Tool Use Prompt Tokens", kNoFlags, 1030,
          S::kUsageToolUsePromptTokens, usage_rows::tool_use),
    rec_in_group(rec("usage_prompt_audio_seconds", "Usage Prompt Audio Seconds", "sec", kNsPerSec,
                     kLib | kMediaOnly, 1040, S::kUsagePromptAudioSeconds, usage_rows::audio_seconds)),
    usage("usage_completion_tokens", "Usage Completion Tokens", kOut | kLib, 1100,
          S::kUsageCompletionTokens, usage_rows::completion),
    usage("usage_reasoning_tokens", "Usage Reasoning Tokens", kOut | kLib, 1110,
          S::kUsageReasoningTokens, usage_rows::reasoning),
    usage("usage_completion_audio_tokens", "Usage Completion Audio Tokens",
          kOut | kLib | kMediaOnly, 1120, S::kUsageCompletionAudioTokens, usage_rows::completion_audio),
    usage("usage_accepted_prediction_tokens", "Usage Accepted Prediction Tokens", kOut | kLib, 1130,
          S::kUsageAcceptedPredictionTokens, usage_rows::accepted),
    usage("usage_rejected_prediction_tokens", "Usage Rejected Prediction Tokens", kOut, 1140,
          S::kUsageRejectedPredictionTokens, usage_rows::rejected),
    usage("usage_total_tokens", "Usage Total Tokens", kOut | kLib, 1200, S::kUsageTotalTokens,
          usage_rows::total),
    rec("usage_prompt_tokens_diff_pct", "Usage Prompt Diff %", "%", 1, kIn | kNoConsole, 0,
        S::kUsagePromptDiffPct, u_prompt_diff),
    rec("usage_completion_tokens_diff_pct", "Usage Completion Diff %", "%", 1, kOut | kNoConsole, 0,
        S::kUsageCompletionDiffPct, u_completion_diff),
    rec("usage_reasoning_tokens_diff_pct", "Usage Reasoning Diff %", "%", 1,
        kReason | kNoConsole, 0,
        S::kUsageReasoningDiffPct, u_reasoning_diff),
    rec("osl_mismatch_diff_pct", "OSL Mismatch Diff %", "%", 1, kOut | kNoConsole, 0,
        S::kOslMismatchDiffPct, osl_mismatch),
    media_rows::video_inference_time(310),
    media_rows::video_peak_memory(311),
    media_rows::num_images(),
    media_rows::image_throughput(860),
    media_rows::image_latency(861),
    rec("error_isl", "Error Input Sequence Length", "tokens", 1, kIn | kErrorOnly | kTok, 0,
        S::kErrorIsl, error_isl),
    rec("stream_setup_latency", "Stream Setup Latency", "ms", kNsPerMs, kStreamTokens | kHidden, 0,
        S::kStreamSetupLatency, setup),
    rec("stream_prefill_latency", "Stream Prefill Latency", "ms", kNsPerMs, kStreamTokens | kHidden,
        0, S::kStreamPrefillLatency, stream_prefill),
    // HTTP timing (k6's names, AIPerf's http_req_* rows; metrics/http_trace_rows.h). Console:
    // the HTTP Trace table of --show-trace-timing only.
    http_trace_rows::row("http_req_blocked", "HTTP Blocked", S::kHttpReqBlocked, 3000),
    http_trace_rows::row("http_req_dns_lookup", "HTTP DNS Lookup", S::kHttpReqDnsLookup, 3010),
    http_trace_rows::row("http_req_connecting", "HTTP Connecting", S::kHttpReqConnecting, 3020),
    http_trace_rows::row("http_req_tls_handshaking", "HTTP TLS Handshaking",
                         S::kHttpReqTlsHandshaking, 3030),
    http_trace_rows::row("http_req_sending", "HTTP Sending", S::kHttpReqSending, 3040),
    http_trace_rows::row("http_req_waiting", "HTTP Waiting (TTFB)", S::kHttpReqWaiting, 3050),
    http_trace_rows::row("http_req_receiving", "HTTP Receiving", S::kHttpReqReceiving, 3060),
    http_trace_rows::row("http_req_duration", "HTTP Duration (excl. conn)", S::kHttpReqDuration,
                         3070),
    http_trace_rows::row("http_req_connection_overhead", "HTTP Connection Overhead",
                         S::kHttpReqConnectionOverhead, 3080),
    http_trace_rows::row("http_req_total", "HTTP Total Time", S::kHttpReqTotal, 3090),
    http_trace_rows::row("http_req_data_sent", "HTTP Data Sent", S::kHttpReqDataSent, 3100),
    http_trace_rows::row("http_req_data_received", "HTTP Data Received",
                         S::kHttpReqDataReceived, 3110),
    http_trace_rows::row("http_req_connection_reused", "HTTP Connection Reused",
                         S::kHttpReqConnectionReused, 3120),
    http_trace_rows::row("http_req_chunks_received", "HTTP Chunks Received",
                         S::kHttpReqChunksReceived, 3130),
    http_trace_rows::row("http_req_chunks_sent", "HTTP Chunks Sent", S::kHttpReqChunksSent, 3125),
    // AIPerf 0.13's credit-anchored latencies (metrics/aiperf013_rows.h).
    aiperf013_rows::credit_to_start_latency(0),
    aiperf013_rows::effective_latency(5000),
    // Speculative decoding (vLLM / SGLang usage counts; metrics/spec_decode_rows.h).
    spec_decode_rows::row("spec_decode_acceptance_length", "Spec Decode Acceptance Length",
                          S::kSpecDecodeAcceptanceLength, 4000),
    spec_decode_rows::row("spec_decode_draft_acceptance_rate", "Spec Decode Draft Acceptance Rate",
                          S::kSpecDecodeDraftAcceptanceRate, 4010),
    spec_decode_rows::row("spec_decode_accepted_per_verified", "Spec Decode Accepted Per Verified",
                          S::kSpecDecodeAcceptedPerVerified, 4020),
    spec_decode_rows::row("spec_decode_steps", "Spec Decode Steps", S::kSpecDecodeSteps, 4030),
    spec_decode_rows::row("spec_decode_accepted_draft_tokens", "Spec Decode Accepted Draft Tokens",
                          S::kSpecDecodeAcceptedDraftTokens, 4040),
    spec_decode_rows::row("spec_decode_draft_tokens", "Spec Decode Draft Tokens",
                          S::kSpecDecodeDraftTokens, 4050),
    spec_decode_rows::total("total_spec_decode_steps", "Total Spec Decode Steps",
                            S::kSpecDecodeSteps, 4100),
    spec_decode_rows::total("total_accepted_draft_tokens", "Total Accepted Draft Tokens",
                            S::kSpecDecodeAcceptedDraftTokens, 4110),
    spec_decode_rows::total("total_draft_tokens", "Total Draft Tokens", S::kSpecDecodeDraftTokens,
                            4120),
    spec_decode_rows::weighted_acceptance_length(4200),
    spec_decode_rows::overall_acceptance_rate(4210),

    // Aggregates.
    formula("request_count", "Request Count", "requests", 1, K::kAggregate,
            kLargerIsBetter | kIntegerValued, 1100, request_count),
    aiperf013_rows::completed_request_count(1075),
    formula("error_request_count", "Error Request Count", "requests", 1, K::kAggregate,
            kErrorOnly | kIntegerValued | kNoConsole, 0, error_count),
    formula("good_request_count", "GoodRequestCount", "requests", 1, K::kAggregate,
            kIntegerValued | kNoConsole, 0, good_count),
    formula("usage_discrepancy_count", "Usage Discrepancy Count", "requests", 1, K::kAggregate,
            kIntegerValued | kNoConsole, 0, discrepancy_count),
    formula("osl_mismatch_count", "OSL Mismatch Count", "requests", 1, K::kAggregate,
            kOut | kIntegerValued | kNoConsole, 0, mismatch_count),
    formula("min_request_timestamp", "Minimum Request Timestamp", "ns", 1, K::kAggregate,
            kTimestamp | kNoConsole, 0, min_timestamp),
    formula("max_response_timestamp", "Maximum Response Timestamp", "ns", 1, K::kAggregate,
            kTimestamp | kNoConsole, 0, max_timestamp),

    // Derived.
    formula("benchmark_duration", "Benchmark Duration", "sec", kNsPerSec, K::kDerived, kNoConsole,
            0, duration),
    formula("request_throughput", "Request Throughput", "requests/sec", 1, K::kDerived,
            kLargerIsBetter, 900, request_tps),
    formula("output_token_throughput", "Output Token Throughput", "tokens/sec", 1, K::kDerived,
            kOut | kLargerIsBetter, 800, output_tps),
    formula("input_token_throughput", "Input Token Throughput", "tokens/sec", 1, K::kDerived,
            kIn | kLargerIsBetter | kNoConsole, 805, input_tps),
    formula("total_token_throughput", "Total Token Throughput", "tokens/sec", 1, K::kDerived,
            kIn | kOut | kLargerIsBetter | kNoConsole, 0, total_tps),
    formula("goodput", "Goodput", "requests/sec", 1, K::kDerived, kLargerIsBetter, 1000, goodput),
    formula("good_request_fraction", "GoodRequestFraction", "ratio", 1, K::kDerived,
            kLargerIsBetter | kNoConsole, 0, good_fraction),
    formula("request_error_rate", "Request Error Rate", "%", 1, K::kDerived, kNoFlags, 1080,
            error_rate),
    total("total_isl", "Total Input Sequence Length", kIn, S::kIsl),
    total("total_osl", "Total Output Sequence Length", kOut, S::kOsl),
    total("total_output_tokens", "Total Output Tokens", kOut, S::kOutputTokenCount),
    total("total_reasoning_tokens", "Total Reasoning Tokens", kReason, S::kReasoningTokenCount),
    total("total_error_isl", "Total Error Input Sequence Length", kIn, S::kErrorIsl),
    usage_total("total_usage_prompt_tokens", "Total Usage Prompt Tokens", kIn | kLib, 2000,
                S::kUsagePromptTokens),
    usage_total("total_usage_prompt_cache_read_tokens", "Total Usage Prompt Cache Read Tokens",
                kLib, 2010, S::kUsagePromptCacheReadTokens),
    formula_in_group(formula("overall_usage_prompt_cache_read_pct",
                             "Overall Usage Prompt Cache Read %", "%", 1, K::kDerived, kLib, 2012,
                             usage_rows::cache_read_pct)),
    formula("theoretical_prefix_cache_hit", "Theoretical Prefix Cache Hit", "%", 1, K::kDerived, kNoFlags,
            2013, prefix_cache_rows::hit_pct),
    usage_total("total_usage_prompt_cache_write_tokens", "Total Usage Prompt Cache Write Tokens",
                kNoFlags, 2015, S::kUsagePromptCacheWriteTokens),
    usage_total("total_usage_prompt_cache_miss_tokens", "Total Usage Prompt Cache Miss Tokens",
                kNoFlags, 2017, S::kUsagePromptCacheMissTokens),
    usage_total("total_usage_prompt_audio_tokens", "Total Usage Prompt Audio Tokens",
                kLib | kMediaOnly, 2020, S::kUsagePromptAudioTokens),
    usage_total("total_usage_tool_use_prompt_tokens", "Total Usage Tool Use Prompt Tokens",
                kNoFlags, 2030, S::kUsageToolUsePromptTokens),
    seconds_total(),
    usage_total("total_usage_completion_tokens", "Total Usage Completion Tokens", kOut | kLib,
                2100, S::kUsageCompletionTokens),
    usage_total("total_usage_reasoning_tokens", "Total Usage Reasoning Tokens", kOut | kLib, 2110,
                S::kUsageReasoningTokens),
    usage_total("total_usage_completion_audio_tokens", "Total Usage Completion Audio Tokens",
                kOut | kLib | kMediaOnly, 2120, S::kUsageCompletionAudioTokens),
    usage_total("total_usage_accepted_prediction_tokens",
                "Total Usage Accepted Prediction Tokens", kOut | kLib, 2130,
                S::kUsageAcceptedPredictionTokens),
    usage_total("total_usage_rejected_prediction_tokens",
                "Total Usage Rejected Prediction Tokens", kOut, 2140,
                S::kUsageRejectedPredictionTokens),
    usage_total("total_usage_total_tokens", "Total Usage Total Tokens", kOut | kLib, 2200,
                S::kUsageTotalTokens),

    // servebench's own: written under the JSON "servebench" key, never in the console table or
    // the CSV; --goodput (per-record ones) and --fail-on find them like any other row.
    rec("time_to_first_token_from_intended", "Time to First Token from Intended Send", "ms",
        kNsPerMs, kOurs | kStreamTokens, 0, S::kTtftFromIntended, ttft_from_intended),
    rec("request_latency_from_intended", "Request Latency from Intended Send", "ms", kNsPerMs,
        kOurs, 0, S::kLatencyFromIntended, latency_from_intended),
    rec("schedule_lag", "Schedule Lag", "ms", kNsPerMs, kOurs | kAllOutcomes, 0, S::kScheduleLag,
        schedule_lag),
    rec("prefix_cache_hit_blocks", "Prefix Cache Hit Blocks", "blocks", 1, kOurs | kIntegerValued, 0,
        S::kPrefixHitBlocks, prefix_cache_rows::hit_blocks),
    rec("prefix_cache_total_blocks", "Prefix Cache Blocks", "blocks", 1, kOurs | kIntegerValued, 0,
        S::kPrefixTotalBlocks, prefix_cache_rows::total_blocks),
    per_token_list(),
    formula("late_send_fraction", "Late Send Fraction", "ratio", 1, K::kDerived, kOurs, 0,
            late_fraction),
    formula("client_limited", "Client Limited", "count", 1, K::kDerived, kOurs | kIntegerValued, 0,
            client_limited),
    formula("peak_concurrency", "Peak Concurrency", "requests", 1, K::kAggregate,
            kOurs | kIntegerValued, 0, peak_concurrency),
    formula("avg_concurrency", "Average Concurrency", "requests", 1, K::kDerived, kOurs, 0,
            avg_concurrency),
    formula("cancelled_request_count", "Cancelled Request Count", "requests", 1, K::kAggregate,
            kOurs | kIntegerValued, 0, cancelled_count),
};

constexpr size_t kNumMetrics = sizeof(kMetrics) / sizeof(kMetrics[0]);

std::array<const MetricInfo*, kNumRecordSlots> build_slot_index() {
  std::array<const MetricInfo*, kNumRecordSlots> a{};
  for (const MetricInfo& m : kMetrics) {
    if (m.value != nullptr) a[static_cast<size_t>(m.slot)] = &m;
  }
  return a;
}

}  // namespace

core::Capabilities MetricInfo::needs() const {
  core::Capabilities c = core::kCapNone;
  if (has(kStreamingOnly)) c |= core::kCapStreams;
  if (has(kProducesTokensOnly)) c |= core::kCapProducesTokens;
  if (has(kTokenizesInputOnly)) c |= core::kCapTokenizesInput;
  if (has(kSupportsReasoning)) c |= core::kCapReasoning;
  if (has(kMediaOnly)) c |= core::kCapMedia;
  if (has(kProducesVideoOnly)) c |= core::kCapProducesVideo;
  return c;
}

std::string_view console_group_name(ConsoleGroup g) {
  switch (g) {
    case ConsoleGroup::kUsage:
      return "Usage";
    case ConsoleGroup::kSpecDecode:
      return "Spec Decode";
    case ConsoleGroup::kHttpTrace:
      return "HTTP Trace";
    case ConsoleGroup::kEffective:
      return "Effective";
    case ConsoleGroup::kActive:
      return "Active";
    case ConsoleGroup::kDefault:
      break;
  }
  return "";
}

const MetricInfo* find_metric(std::string_view tag) {
  for (const MetricInfo& m : kMetrics) {
    if (m.tag == tag) return &m;
  }
  return nullptr;
}

const MetricInfo* all_metrics(size_t* count) {
  *count = kNumMetrics;
  return kMetrics;
}

const MetricInfo* slot_metric(RecordMetric m) {
  static const std::array<const MetricInfo*, kNumRecordSlots> kIndex = build_slot_index();
  const size_t i = static_cast<size_t>(m);
  return i < kNumRecordSlots ? kIndex[i] : nullptr;
}

}  // namespace servebench::metrics
