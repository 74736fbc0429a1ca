#include "metrics/metric_info.h"

namespace servebench::metrics {
namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerSec = 1e9;
using K = MetricKind;

// Headers, units and orders follow AIPerf's registry (src/aiperf/metrics/types/*.py).
constexpr MetricInfo kMetrics[] = {
    // Record metrics (base unit ns / tokens / %).
    {"time_to_first_token", "Time to First Token", "ms", kNsPerMs, K::kRecord, kStreamingOnly, 100},
    {"adj_time_to_first_token", "Adjusted Time to First Token", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly, 101},
    {"time_to_second_token", "Time to Second Token", "ms", kNsPerMs, K::kRecord, kStreamingOnly,
     200},
    {"time_to_first_output_token", "Time to First Output Token", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly, 210},
    {"request_latency", "Request Latency", "ms", kNsPerMs, K::kRecord, kNoFlags, 300},
    {"adj_request_latency", "Adjusted Request Latency", "ms", kNsPerMs, K::kRecord, kNoFlags, 301},
    {"decode_duration", "Decode Duration", "ms", kNsPerMs, K::kRecord, kStreamingOnly, 350},
    {"adj_decode_duration", "Adjusted Decode Duration", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly, 351},
    {"inter_token_latency", "Inter Token Latency", "ms", kNsPerMs, K::kRecord, kStreamingOnly, 400},
    {"adj_inter_token_latency", "Adjusted Inter Token Latency", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly, 401},
    {"inter_chunk_latency", "Inter Chunk Latency", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly | kNoConsole, 0},
    {"output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user", 1,
     K::kRecord, kStreamingOnly | kLargerIsBetter, 500},
    {"e2e_output_token_throughput", "E2E Output Token Throughput", "tokens/sec/user", 1,
     K::kRecord, kLargerIsBetter, 510},
    {"prefill_throughput_per_user", "Prefill Throughput Per User", "tokens/sec/user", 1,
     K::kRecord, kStreamingOnly | kLargerIsBetter | kNoConsole, 0},
    {"output_sequence_length", "Output Sequence Length", "tokens", 1, K::kRecord,
     kLargerIsBetter | kIntegerValued, 600},
    {"reasoning_token_count", "Reasoning Token Count", "tokens", 1, K::kRecord, kIntegerValued,
     650},
    {"input_sequence_length", "Input Sequence Length", "tokens", 1, K::kRecord,
     kLargerIsBetter | kIntegerValued, 700},
    {"output_token_count", "Output Token Count", "tokens", 1, K::kRecord,
     kIntegerValued | kNoConsole, 0},
    {"usage_prompt_tokens", "Usage Prompt Tokens", "tokens", 1, K::kRecord,
     kIntegerValued | kNoConsole, 0},
    {"usage_completion_tokens", "Usage Completion Tokens", "tokens", 1, K::kRecord,
     kIntegerValued | kNoConsole, 0},
    {"usage_total_tokens", "Usage Total Tokens", "tokens", 1, K::kRecord,
     kIntegerValued | kNoConsole, 0},
    {"usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens", 1, K::kRecord,
     kIntegerValued | kNoConsole, 0},
    {"usage_prompt_cache_read_tokens", "Usage Prompt Cache Read Tokens", "tokens", 1, K::kRecord,
     kIntegerValued | kNoConsole, 0},
    {"usage_prompt_tokens_diff_pct", "Usage Prompt Diff", "%", 1, K::kRecord, kNoConsole, 0},
    {"usage_completion_tokens_diff_pct", "Usage Completion Diff", "%", 1, K::kRecord, kNoConsole,
     0},
    {"usage_reasoning_tokens_diff_pct", "Usage Reasoning Diff", "%", 1, K::kRecord, kNoConsole, 0},
    {"osl_mismatch_diff_pct", "OSL Mismatch Diff", "%", 1, K::kRecord, kNoConsole, 0},
    {"error_isl", "Error Input Sequence Length", "tokens", 1, K::kRecord,
     kErrorOnly | kIntegerValued | kNoConsole, 0},
    {"stream_setup_latency", "Stream Setup Latency", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly | kNoConsole | kNoCsv, 0},
    {"stream_prefill_latency", "Stream Prefill Latency", "ms", kNsPerMs, K::kRecord,
     kStreamingOnly | kNoConsole | kNoCsv, 0},
    {"http_req_sending", "HTTP Request Sending", "ms", kNsPerMs, K::kRecord, kNoConsole | kNoCsv,
     0},
    {"http_req_waiting", "HTTP Request Waiting", "ms", kNsPerMs, K::kRecord, kNoConsole | kNoCsv,
     0},
    {"http_req_receiving", "HTTP Request Receiving", "ms", kNsPerMs, K::kRecord,
     kNoConsole | kNoCsv, 0},
    {"http_req_duration", "HTTP Request Duration", "ms", kNsPerMs, K::kRecord,
     kNoConsole | kNoCsv, 0},
    {"http_req_data_sent", "HTTP Request Data Sent", "B", 1, K::kRecord,
     kIntegerValued | kNoConsole | kNoCsv, 0},
    {"http_req_data_received", "HTTP Request Data Received", "B", 1, K::kRecord,
     kIntegerValued | kNoConsole | kNoCsv, 0},
    {"http_req_connection_reused", "HTTP Connection Reused", "count", 1, K::kRecord,
     kIntegerValued | kNoConsole | kNoCsv, 0},

    // Aggregates.
    {"request_count", "Request Count", "requests", 1, K::kAggregate,
     kLargerIsBetter | kIntegerValued, 1100},
    {"error_request_count", "Error Request Count", "requests", 1, K::kAggregate,
     kErrorOnly | kIntegerValued | kNoConsole, 0},
    {"good_request_count", "GoodRequestCount", "requests", 1, K::kAggregate,
     kIntegerValued | kNoConsole, 0},
    {"usage_discrepancy_count", "Usage Discrepancy Count", "requests", 1, K::kAggregate,
     kIntegerValued | kNoConsole, 0},
    {"osl_mismatch_count", "OSL Mismatch Count", "requests", 1, K::kAggregate,
     kIntegerValued | kNoConsole, 0},
    {"min_request_timestamp", "Minimum Request Timestamp", "ns", 1, K::kAggregate,
     kTimestamp | kNoConsole, 0},
    {"max_response_timestamp", "Maximum Response Timestamp", "ns", 1, K::kAggregate,
     kTimestamp | kNoConsole, 0},

    // Derived.
    {"benchmark_duration", "Benchmark Duration", "sec", kNsPerSec, K::kDerived, kNoConsole, 0},
    {"output_token_throughput", "Output Token Throughput", "tokens/sec", 1, K::kDerived,
     kLargerIsBetter, 800},
    {"input_token_throughput", "Input Token Throughput", "tokens/sec", 1, K::kDerived,
     kLargerIsBetter | kNoConsole, 805},
    {"total_token_throughput", "Total Token Throughput", "tokens/sec", 1, K::kDerived,
     kLargerIsBetter | kNoConsole, 0},
    {"request_throughput", "Request Throughput", "requests/sec", 1, K::kDerived, kLargerIsBetter,
     900},
    {"goodput", "Goodput", "requests/sec", 1, K::kDerived, kLargerIsBetter, 1000},
    {"good_request_fraction", "GoodRequestFraction", "ratio", 1, K::kDerived,
     kLargerIsBetter | kNoConsole, 0},
    {"request_error_rate", "Request Error Rate", "%", 1, K::kDerived, kNoFlags, 1080},
    {"total_isl", "Total Input Sequence Length", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_osl", "Total Output Sequence Length", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_output_tokens", "Total Output Tokens", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_reasoning_tokens", "Total Reasoning Tokens", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_error_isl", "Total Error Input Sequence Length", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_usage_completion_tokens", "Total Usage Completion Tokens", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_usage_total_tokens", "Total Usage Total Tokens", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
    {"total_usage_reasoning_tokens", "Total Usage Reasoning Tokens", "tokens", 1, K::kDerived,
     kIntegerValued | kNoConsole, 0},
};

}  // namespace

const MetricInfo* find_metric(std::string_view tag) {
  for (const MetricInfo& m : kMetrics) {
    if (m.tag == tag) return &m;
  }
  return nullptr;
}

const MetricInfo* all_metrics(size_t* count) {
  *count = sizeof(kMetrics) / sizeof(kMetrics[0]);
  return kMetrics;
}

}  // namespace servebench::metrics
