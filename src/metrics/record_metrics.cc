#include "metrics/record_metrics.h"

#include <cstdlib>

namespace servebench::metrics {

using record::ChunkKind;
using record::RequestRecord;

const char* record_metric_tag(RecordMetric m) {
  static constexpr const char* kTags[kNumRecordMetrics] = {
      "time_to_first_token",
      "time_to_second_token",
      "time_to_first_output_token",
      "request_latency",
      "decode_duration",
      "inter_token_latency",
      "output_token_throughput_per_user",
      "e2e_output_token_throughput",
      "prefill_throughput_per_user",
      "input_sequence_length",
      "output_token_count",
      "reasoning_token_count",
      "output_sequence_length",
      "usage_prompt_tokens",
      "usage_completion_tokens",
      "usage_total_tokens",
      "usage_reasoning_tokens",
      "usage_prompt_cache_read_tokens",
      "usage_prompt_tokens_diff_pct",
      "usage_completion_tokens_diff_pct",
      "usage_reasoning_tokens_diff_pct",
      "osl_mismatch_diff_pct",
      "error_isl",
      "stream_setup_latency",
      "stream_prefill_latency",
      "http_req_sending",
      "http_req_waiting",
      "http_req_receiving",
      "http_req_duration",
      "http_req_data_sent",
      "http_req_data_received",
      "http_req_connection_reused",
  };
  return kTags[static_cast<size_t>(m)];
}

void compute_record_metrics(const RequestRecord& r, RecordValues* out) {
  out->v.fill(NAN);
  out->last_content_ns = 0;
  out->ttft_from_intended_ns = NAN;
  out->latency_from_intended_ns = NAN;
  out->schedule_lag_ns = NAN;
  out->usage_discrepancy = false;
  out->osl_mismatch = false;
  auto set = [out](RecordMetric m, double value) { out->v[static_cast<size_t>(m)] = value; };

  if (r.intended_ns > 0 && r.request_start_ns > 0) {
    out->schedule_lag_ns = static_cast<double>(r.request_start_ns - r.intended_ns);
  }

  if (!r.ok()) {
    if (!r.dropped() && r.input_tokens >= 0) {
      set(RecordMetric::kErrorIsl, static_cast<double>(r.input_tokens));
    }
    return;
  }

  const int64_t start = r.request_start_ns;
  int64_t first = 0, second = 0, first_output = 0, last = 0;
  for (const record::Chunk& c : r.chunks) {
    if (!is_content_chunk(c.kind)) continue;
    if (first == 0) {
      first = c.recv_ns;
    } else if (second == 0) {
      second = c.recv_ns;
    }
    if (first_output == 0 && c.kind != ChunkKind::kReasoning) first_output = c.recv_ns;
    last = c.recv_ns;
  }
  out->last_content_ns = last;

  // Token counts.
  const bool has_isl = r.input_tokens >= 0;
  if (has_isl) set(RecordMetric::kIsl, static_cast<double>(r.input_tokens));
  if (r.output_tokens >= 0) set(RecordMetric::kOutputTokenCount, static_cast<double>(r.output_tokens));
  if (r.reasoning_tokens > 0) {
    set(RecordMetric::kReasoningTokenCount, static_cast<double>(r.reasoning_tokens));
  }
  const bool has_osl = r.output_tokens >= 0 || r.reasoning_tokens >= 0;
  const double osl = static_cast<double>((r.output_tokens > 0 ? r.output_tokens : 0) +
                                         (r.reasoning_tokens > 0 ? r.reasoning_tokens : 0));
  if (has_osl) set(RecordMetric::kOsl, osl);

  // Latencies.
  double latency = NAN;
  if (last != 0) {
    latency = static_cast<double>(last - start);
    set(RecordMetric::kRequestLatency, latency);
    if (has_osl && latency > 0) set(RecordMetric::kE2eOutputTps, osl / (latency / 1e9));
    if (r.intended_ns > 0) out->latency_from_intended_ns = static_cast<double>(last - r.intended_ns);
  }
  if (r.streaming && first != 0) {
    const double ttft = static_cast<double>(first - start);
    set(RecordMetric::kTtft, ttft);
    if (r.intended_ns > 0) out->ttft_from_intended_ns = static_cast<double>(first - r.intended_ns);
    if (second != 0) set(RecordMetric::kTtst, static_cast<double>(second - first));
    const double decode = latency - ttft;
    set(RecordMetric::kDecodeDuration, decode);
    if (has_osl && osl >= 2) {
      const double itl = decode / (osl - 1);
      set(RecordMetric::kItl, itl);
      if (itl > 0) set(RecordMetric::kOutputTpsPerUser, 1e9 / itl);
    }
    if (has_isl && ttft > 0) {
      set(RecordMetric::kPrefillTpsPerUser, static_cast<double>(r.input_tokens) / (ttft / 1e9));
    }
    if (r.first_byte_ns > 0) {
      const double setup = static_cast<double>(r.first_byte_ns - start);
      set(RecordMetric::kStreamSetupLatency, setup);
      set(RecordMetric::kStreamPrefillLatency, ttft - setup);
    }
  }
  if (r.streaming && first_output != 0) {
    set(RecordMetric::kTtfo, static_cast<double>(first_output - start));
  }

  // Server usage and its differences from our counts.
  const record::Usage& u = r.usage;
  if (u.prompt_tokens >= 0) set(RecordMetric::kUsagePromptTokens, static_cast<double>(u.prompt_tokens));
  if (u.completion_tokens >= 0) {
    set(RecordMetric::kUsageCompletionTokens, static_cast<double>(u.completion_tokens));
  }
  if (u.total_tokens >= 0) set(RecordMetric::kUsageTotalTokens, static_cast<double>(u.total_tokens));
  if (u.reasoning_tokens >= 0) {
    set(RecordMetric::kUsageReasoningTokens, static_cast<double>(u.reasoning_tokens));
  }
  if (u.prompt_cache_read_tokens >= 0) {
    set(RecordMetric::kUsagePromptCacheReadTokens, static_cast<double>(u.prompt_cache_read_tokens));
  }
  bool discrepancy = false;
  if (u.prompt_tokens >= 0 && r.input_tokens > 0) {
    const double d = std::abs(static_cast<double>(u.prompt_tokens - r.input_tokens)) /
                     static_cast<double>(r.input_tokens) * 100.0;
    set(RecordMetric::kUsagePromptDiffPct, d);
    discrepancy |= d > kUsageDiffThresholdPct;
  }
  if (u.completion_tokens >= 0 && has_osl && osl > 0) {
    const double d = std::abs(static_cast<double>(u.completion_tokens) - osl) / osl * 100.0;
    set(RecordMetric::kUsageCompletionDiffPct, d);
    discrepancy |= d > kUsageDiffThresholdPct;
  }
  if (u.reasoning_tokens >= 0 && r.reasoning_tokens > 0) {
    const double d = std::abs(static_cast<double>(u.reasoning_tokens - r.reasoning_tokens)) /
                     static_cast<double>(r.reasoning_tokens) * 100.0;
    set(RecordMetric::kUsageReasoningDiffPct, d);
    discrepancy |= d > kUsageDiffThresholdPct;
  }
  out->usage_discrepancy = discrepancy;

  if (r.requested_output_tokens > 0 && has_osl) {
    const double req = static_cast<double>(r.requested_output_tokens);
    set(RecordMetric::kOslMismatchDiffPct, (osl - req) / req * 100.0);
    const double threshold = std::min(req * (kOslMismatchPctThreshold / 100.0), kOslMismatchMaxTokens);
    out->osl_mismatch = std::abs(osl - req) > threshold;
  }

  // HTTP timings derivable from our timestamps (k6 names, as AIPerf's trace metrics).
  if (r.request_sent_ns > 0) {
    set(RecordMetric::kHttpReqSending, static_cast<double>(r.request_sent_ns - start));
    if (r.first_byte_ns > 0) {
      set(RecordMetric::kHttpReqWaiting, static_cast<double>(r.first_byte_ns - r.request_sent_ns));
    }
  }
  if (r.first_byte_ns > 0 && r.end_ns > 0) {
    set(RecordMetric::kHttpReqReceiving, static_cast<double>(r.end_ns - r.first_byte_ns));
  }
  if (r.end_ns > 0) set(RecordMetric::kHttpReqDuration, static_cast<double>(r.end_ns - start));
  if (r.request_bytes > 0) set(RecordMetric::kHttpReqDataSent, static_cast<double>(r.request_bytes));
  if (r.response_bytes > 0) {
    set(RecordMetric::kHttpReqDataReceived, static_cast<double>(r.response_bytes));
  }
  set(RecordMetric::kHttpReqConnectionReused, r.connection_reused ? 1.0 : 0.0);
}

void append_inter_chunk_latencies(const RequestRecord& r, std::vector<double>* out) {
  if (!r.ok() || !r.streaming) return;
  int64_t prev = 0;
  for (const record::Chunk& c : r.chunks) {
    if (!is_content_chunk(c.kind)) continue;
    if (prev != 0) out->push_back(static_cast<double>(c.recv_ns - prev));
    prev = c.recv_ns;
  }
}

int32_t error_code(const RequestRecord& r) {
  if (r.ok()) return 0;
  if (r.cancelled()) return 499;  // even when headers (200) had arrived before the cancel
  if (r.http_status >= 300 || (r.error == record::ErrorKind::kHttpStatus && r.http_status > 0)) {
    return r.http_status;
  }
  return r.cancelled() ? 499 : 0;
}

bool per_token_itl_equals_icl(const RequestRecord& r) {
  bool first = true;
  for (const record::Chunk& c : r.chunks) {
    if (!is_content_chunk(c.kind)) continue;
    if (!first && c.tokens != 1 && c.tokens != -1) return false;
    first = false;
  }
  return true;
}

void append_per_token_itl(const RequestRecord& r, std::vector<double>* out) {
  if (!r.ok() || !r.streaming) return;
  int64_t prev = 0;
  for (const record::Chunk& c : r.chunks) {
    if (!is_content_chunk(c.kind)) continue;
    if (prev == 0) {
      prev = c.recv_ns;
      continue;
    }
    const int32_t tokens = c.tokens < 0 ? 1 : c.tokens;
    // A chunk that decodes to no token extends the next gap instead of losing its time.
    if (tokens == 0) continue;
    const double per = static_cast<double>(c.recv_ns - prev) / tokens;
    out->insert(out->end(), static_cast<size_t>(tokens), per);
    prev = c.recv_ns;
  }
}

}  // namespace servebench::metrics
