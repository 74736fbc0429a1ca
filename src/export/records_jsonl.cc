#include "export/records_jsonl.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "export/line_cursor.h"
#include "export/text_util.h"
#include "metrics/metric_info.h"
#include "metrics/record_metrics.h"

namespace servebench::exporter {

using metrics::RecordMetric;
using record::RequestRecord;

namespace {

void key(std::string* out, std::string_view k) {
  out->push_back('"');
  out->append(k);
  out->append("\":", 2);
}

// Literal keys (most of a line) are copied without measuring them first.
template <size_t N>
void key(std::string* out, const char (&k)[N]) {
  key(out, std::string_view(k, N - 1));
}

// Integers are written through a stack buffer: std::to_string of a 19-digit wall-clock ns
// allocates (beyond the small-string buffer).
void append_int(std::string* out, int64_t v) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

void wall_or_null(LineCursor* w, const record::RunAnchor& a, int64_t steady) {
  if (steady <= 0) {
    w->lit("null");
  } else {
    w->integer(a.to_wall_ns(steady));
  }
}

// AIPerf 0.13's phase keys: a run's phases are an optional warm-up and then one profiling phase,
// each named after its kind; profiling_index counts profiling phases only (null for warm-up).
void phase_keys(const RequestRecord& r, LineCursor* w) {
  w->lit("\"phase_index\":");
  w->integer(r.phase_index);
  w->lit(",\"profiling_index\":");
  if (r.phase == record::Phase::kProfiling) {
    w->lit("0");
  } else {
    w->lit("null");
  }
  w->lit(",\"phase_name\":");
  w->json_string(record::phase_name(r.phase));
  w->lit(",\"phase_kind\":");
  w->json_string(record::phase_name(r.phase));
  w->put(',');
}

// AIPerf 0.13's session-tree keys. servebench's sessions have no sub-agent forks, so every
// record is a root (depth 0, its own correlation id). A record AIPerf would mark as a skipped
// context overflow is left out of its exports, so an exported line always says false.
// (root_correlation_id follows: the record's x_correlation_id.)
constexpr char kSessionTreeKeys[] =
    "\"context_overflow_skip\":false,\"agent_depth\":0,\"root_correlation_id\":";

// `,"worker_id":...` to the phase keys: the same for every record of one worker, URL, processor
// slot and phase.
void worker_keys(const RequestRecord& r, LineCursor* w) {
  w->lit(",\"worker_id\":\"worker_");
  w->integer(r.worker_id);
  w->lit("\",\"url_index\":");
  w->integer(r.url_index);
  w->lit(",\"record_processor_id\":\"record_processor_");
  w->integer(r.processor_slot);
  w->lit("\",\"benchmark_phase\":");
  w->json_string(record::phase_name(r.phase));
  w->put(',');
  phase_keys(r, w);
}

// worker_keys and the keys of a record that was not cancelled, up to `"root_correlation_id":`:
// rendered once per thread and copied while those stay the same (a dozen pieces, three of them
// escaped strings, per line before).
void uncancelled_keys(const RequestRecord& r, LineCursor* w) {
  struct Cache {
    bool valid = false;
    int64_t worker_id = 0, url_index = 0, phase_index = 0, slot = 0;
    record::Phase phase = record::Phase::kProfiling;
    std::string text;
  };
  thread_local Cache c;
  if (!c.valid || c.worker_id != r.worker_id || c.url_index != r.url_index ||
      c.phase_index != r.phase_index || c.slot != r.processor_slot || c.phase != r.phase) {
    c = Cache{true, r.worker_id, r.url_index, r.phase_index, r.processor_slot, r.phase, {}};
    LineCursor t(&c.text);
    worker_keys(r, &t);
    t.lit("\"was_cancelled\":false,\"cancellation_time_ns\":null,");
    t.lit(kSessionTreeKeys);
  }
  w->raw(c.text);
}

void metadata(const RequestRecord& r, const record::RunAnchor& a, LineCursor* w) {
  w->lit("\"metadata\":{\"session_num\":");
  w->integer(r.session_num);
  w->lit(",\"x_request_id\":");
  w->json_string(r.x_request_id);
  w->lit(",\"x_correlation_id\":");
  w->json_string(r.x_correlation_id);
  w->lit(",\"conversation_id\":");
  w->json_string(r.conversation_id);
  w->lit(",\"turn_index\":");
  w->integer(r.turn_index);
  w->lit(",\"intended_ns\":");
  wall_or_null(w, a, r.intended_ns);
  w->lit(",\"credit_issued_ns\":");
  wall_or_null(w, a, r.credit_issued_ns);
  w->lit(",\"request_start_ns\":");
  wall_or_null(w, a, r.request_start_ns);
  w->lit(",\"request_ack_ns\":");
  wall_or_null(w, a, r.first_byte_ns);
  w->lit(",\"request_end_ns\":");
  wall_or_null(w, a, r.end_ns);
  if (r.cancelled()) {
    worker_keys(r, w);
    w->lit("\"was_cancelled\":true,\"cancellation_time_ns\":");
    wall_or_null(w, a, r.cancel_ns ? r.cancel_ns : r.end_ns);
    w->put(',');
    w->lit(kSessionTreeKeys);
  } else {
    uncancelled_keys(r, w);
  }
  w->json_string(r.x_correlation_id);
  w->put('}');
}

// The server's usage, normalised (record::Usage): every count it reported, null when none.
void append_usage(const record::Usage& u, std::string* out) {
  const std::pair<const char*, int64_t> counts[] = {
      {"prompt_tokens", u.prompt_tokens},
      {"completion_tokens", u.completion_tokens},
      {"total_tokens", u.total_tokens},
      {"reasoning_tokens", u.reasoning_tokens},
      {"prompt_cache_read_tokens", u.prompt_cache_read_tokens},
      {"prompt_cache_write_tokens", u.prompt_cache_write_tokens},
      {"prompt_cache_miss_tokens", u.prompt_cache_miss_tokens},
      {"prompt_audio_tokens", u.prompt_audio_tokens},
      {"completion_audio_tokens", u.completion_audio_tokens},
      {"accepted_prediction_tokens", u.accepted_prediction_tokens},
      {"rejected_prediction_tokens", u.rejected_prediction_tokens},
      {"tool_use_prompt_tokens", u.tool_use_prompt_tokens},
  };
  const size_t start = out->size();
  for (const auto& [name, v] : counts) {
    if (v < 0) continue;
    out->push_back(out->size() == start ? '{' : ',');
    key(out, name);
    append_int(out, v);
  }
  if (u.prompt_audio_seconds >= 0) {
    out->push_back(out->size() == start ? '{' : ',');
    key(out, "prompt_audio_seconds");
    out->append(fmt::format("{}", u.prompt_audio_seconds));
  }
  out->append(out->size() == start ? "null" : "}");
}

void error_obj(const RequestRecord& r, std::string* out) {
  key(out, "error");
  if (r.ok()) {
    out->append("null");
    return;
  }
  out->push_back('{');
  key(out, "code");
  const int32_t code = metrics::error_code(r);
  out->append(code > 0 ? std::to_string(code) : "null");
  out->push_back(',');
  key(out, "type");
  append_json_string(out, record::error_kind_name(r.error));
  out->push_back(',');
  key(out, "message");
  append_json_string(out, scrub_secrets(r.error_message));
  out->push_back('}');
}

// Registry entry of each record metric, resolved once (find_metric is a linear scan), with the
// constant text around its value rendered once: `"tag":{"value":` and `,"unit":"ms"}`. Escaping
// the tag and unit again for every metric of every line was a measurable part of the writer.
struct RecordMetricText {
  const metrics::MetricInfo* info = nullptr;
  PaddedText head, tail;
};

const RecordMetricText& record_text(size_t i) {
  static const std::array<RecordMetricText, metrics::kNumRecordMetrics> kText = [] {
    std::array<RecordMetricText, metrics::kNumRecordMetrics> a{};
    for (size_t k = 0; k < a.size(); ++k) {
      const char* tag = metrics::record_metric_tag(static_cast<RecordMetric>(k));
      a[k].info = metrics::find_metric(tag);
      std::string head, tail;
      key(&head, tag);
      head.append("{\"value\":");
      tail.append(",\"unit\":");
      if (a[k].info != nullptr) append_json_string(&tail, a[k].info->display_unit);
      tail.push_back('}');
      a[k].head.assign(head);
      a[k].tail.assign(tail);
    }
    return a;
  }();
  return kText[i];
}

void int_key(LineCursor* w, std::string_view k, int64_t v) {
  w->key(k);
  w->integer(v);
  w->put(',');
}

// `"k":<wall ns or null>,`
void wall_key(LineCursor* w, std::string_view k, const record::RunAnchor& a, int64_t steady) {
  w->key(k);
  wall_or_null(w, a, steady);
  w->put(',');
}

// Content chunks: their times are the line's time_to_first_token and inter_chunk_latency
// (exact, see the header); only what those lack is added, and only when it is not the default.
void chunk_extras(const RequestRecord& r, LineCursor* w) {
  if (!r.ok()) return;
  size_t n = 0;
  bool all_content = true, all_one = true;
  for (const record::Chunk& c : r.chunks) {
    if (!metrics::is_content_chunk(c.kind)) continue;
    ++n;
    all_content &= c.kind != record::ChunkKind::kReasoning && c.kind != record::ChunkKind::kToolCall;
    all_one &= c.tokens == 1;
  }
  if (n == 0) return;
  // Streamed: one chunk per time; a body: one chunk unless the parser split it.
  if (!all_content || (!r.streaming && n != 1)) {
    w->lit("\"chunk_kinds\":\"");
    for (const record::Chunk& c : r.chunks) {
      if (!metrics::is_content_chunk(c.kind)) continue;
      w->put(c.kind == record::ChunkKind::kReasoning  ? 'r'
             : c.kind == record::ChunkKind::kToolCall ? 't'
                                                      : 'c');
    }
    w->lit("\",");
  }
  if (!all_one) {
    w->lit("\"chunk_tokens\":[");
    bool first = true;
    for (const record::Chunk& c : r.chunks) {
      if (!metrics::is_content_chunk(c.kind)) continue;
      if (!first) w->put(',');
      first = false;
      w->integer(c.tokens);
    }
    w->lit("],");
  }
}

// The servebench keys a reader needs to rebuild the record for the summary (see the header).
void reader_extras(const RequestRecord& r, const record::RunAnchor& a, LineCursor* w) {
  int_key(w, "request_index", static_cast<int64_t>(r.request_index));
  int_key(w, "http_status", r.http_status);
  int_key(w, "input_tokens", r.input_tokens);
  int_key(w, "output_tokens", r.output_tokens);
  int_key(w, "reasoning_tokens", r.reasoning_tokens);
  int_key(w, "requested_output_tokens", r.requested_output_tokens);
  if (r.output_items >= 0) int_key(w, "output_items", r.output_items);
  if (r.cancelled()) {
    w->lit("\"cancel_reason\":");
    w->json_string(cancel_reason_name(r.cancel_reason));
    w->put(',');
  }
  wall_key(w, "request_sent_ns", a, r.request_sent_ns);
  wall_key(w, "response_complete_ns", a, r.response_complete_ns);
  if (r.conn_start_ns > 0) {
    wall_key(w, "connect_start_ns", a, r.conn_start_ns);
    wall_key(w, "dns_done_ns", a, r.dns_done_ns);
    wall_key(w, "connected_ns", a, r.connected_ns);
    wall_key(w, "tls_done_ns", a, r.tls_done_ns);
  }
  if (r.response_reads > 0) int_key(w, "response_reads", r.response_reads);
  chunk_extras(r, w);
  if (r.streaming) {
    w->lit("\"streaming\":true");
  } else {
    w->lit("\"streaming\":false");
  }
}

// The "metrics" object: every per-request metric that has a value, then the inter-chunk list.
void metrics_obj(const RequestRecord& r, const metrics::RecordValues& rv, LineCursor* w) {
  w->lit("\"metrics\":{");
  bool first = true;
  for (size_t i = 0; i < metrics::kNumRecordMetrics; ++i) {
    if (std::isnan(rv.v[i])) continue;
    const RecordMetricText& text = record_text(i);
    if (!first) w->put(',');
    first = false;
    w->raw(text.head);
    w->scaled(rv.v[i], text.info->display_divisor);
    w->raw(text.tail);
  }
  if (r.ok() && r.streaming) {
    // Reused per thread: a fresh vector per line was one allocation per request.
    thread_local std::vector<double> icl;
    icl.clear();
    metrics::append_inter_chunk_latencies(r, &icl);
    if (!icl.empty()) {
      if (!first) w->put(',');
      w->lit("\"inter_chunk_latency\":{\"value\":[");
      for (size_t i = 0; i < icl.size(); ++i) {
        if (i) w->put(',');
        w->scaled(icl[i], 1e6);
      }
      w->lit("],\"unit\":\"ms\"}");
    }
  }
  w->lit("},");
}

// servebench's own extras: the schedule-anchored values, then what a reader needs.
void servebench_obj(const RequestRecord& r, const record::RunAnchor& a,
                    const metrics::RecordValues& rv, LineCursor* w) {
  w->lit("\"servebench\":{");
  const std::pair<std::string_view, double> extras[] = {
      {"schedule_lag_ms", rv.schedule_lag_ns},
      {"time_to_first_token_from_intended_ms", rv.ttft_from_intended_ns},
      {"request_latency_from_intended_ms", rv.latency_from_intended_ns},
  };
  for (const auto& [k, ns] : extras) {
    if (std::isnan(ns)) continue;
    w->key(k);
    w->scaled(ns, 1e6);
    w->put(',');
  }
  reader_extras(r, a, w);
  w->lit("}}\n");
}

}  // namespace

const char* cancel_reason_name(record::CancelReason reason) {
  switch (reason) {
    case record::CancelReason::kNone: return "none";
    case record::CancelReason::kRate: return "rate";
    case record::CancelReason::kGrace: return "grace";
    case record::CancelReason::kInterrupt: return "interrupt";
  }
  return "none";
}

void append_record_line(const RequestRecord& r, const record::RunAnchor& a, std::string* out,
                        core::Capabilities capabilities, const HttpTraceContext* trace) {
  metrics::RecordValues rv;
  metrics::compute_record_metrics(r, &rv, capabilities);
  append_record_line(r, a, rv, out, trace);
}

void append_record_line(const RequestRecord& r, const record::RunAnchor& a,
                        const metrics::RecordValues& rv, std::string* out,
                        const HttpTraceContext* trace) {
  LineCursor w(out);
  append_record_line(r, a, rv, &w, trace);
}

void append_record_line(const RequestRecord& r, const record::RunAnchor& a,
                        const metrics::RecordValues& rv, LineCursor* w,
                        const HttpTraceContext* trace) {
  w->put('{');
  metadata(r, a, w);
  w->put(',');
  metrics_obj(r, rv, w);
  if (trace != nullptr || !r.ok()) {
    // The rare parts have std::string appenders: built aside, then copied in.
    thread_local std::string aside;
    aside.clear();
    if (trace != nullptr) {
      append_http_trace(r, a, *trace, &aside);
      aside.push_back(',');
    }
    if (!r.ok()) {
      error_obj(r, &aside);
      aside.push_back(',');
    }
    w->raw(aside);
  }
  if (r.ok()) w->lit("\"error\":null,");
  servebench_obj(r, a, rv, w);
}

void append_raw_line(const RequestRecord& r, const record::RunAnchor& a,
                     const std::vector<std::string_view>& payloads, std::string* out) {
  {
    LineCursor w(out);
    w.put('{');
    metadata(r, a, &w);
    w.put(',');
  }
  key(out, "payload");
  // Bodies are JSON rendered by servebench or minified from the input file: embedded as is.
  if (r.payload_index >= 0 && static_cast<size_t>(r.payload_index) < payloads.size() &&
      !payloads[static_cast<size_t>(r.payload_index)].empty()) {
    out->append(scrub_secrets(payloads[static_cast<size_t>(r.payload_index)]));
  } else if (!r.request_body.empty()) {
    out->append(scrub_secrets(r.request_body));  // rendered at send time (multi-turn sessions)
  } else {
    out->append("null");
  }
  out->push_back(',');
  key(out, "start_perf_ns");
  out->append(std::to_string(r.request_start_ns));
  out->push_back(',');
  key(out, "status");
  out->append(std::to_string(r.http_status));
  out->push_back(',');
  key(out, "streaming");
  out->append(r.streaming ? "true" : "false");
  out->push_back(',');
  key(out, "model");
  append_json_string(out, r.model);
  out->push_back(',');
  key(out, "finish_reason");
  append_json_string(out, r.finish_reason);
  out->push_back(',');
  key(out, "input_tokens");
  out->append(std::to_string(r.input_tokens));
  out->push_back(',');
  key(out, "requested_output_tokens");
  out->append(std::to_string(r.requested_output_tokens));
  out->push_back(',');
  key(out, "output_tokens");
  out->append(std::to_string(r.output_tokens));
  out->push_back(',');
  key(out, "reasoning_tokens");
  out->append(std::to_string(r.reasoning_tokens));
  out->push_back(',');
  key(out, "usage");
  append_usage(r.usage, out);
  out->push_back(',');
  key(out, "request_bytes");
  out->append(std::to_string(r.request_bytes));
  out->push_back(',');
  key(out, "response_bytes");
  out->append(std::to_string(r.response_bytes));
  out->push_back(',');
  key(out, "responses");
  out->push_back('[');
  for (size_t i = 0; i < r.chunks.size(); ++i) {
    const record::Chunk& c = r.chunks[i];
    if (i) out->push_back(',');
    static constexpr const char* kKinds[] = {"content", "reasoning", "tool_call", "empty",
                                             "usage"};
    const std::string& src =
        c.kind == record::ChunkKind::kReasoning ? r.reasoning_text : r.output_text;
    std::string_view text;
    if (c.text_offset <= src.size()) {
      text = std::string_view(src).substr(c.text_offset, c.text_bytes);
    }
    out->append("{\"perf_ns\":");
    out->append(std::to_string(c.recv_ns));
    out->append(",\"kind\":");
    append_json_string(out, kKinds[static_cast<int>(c.kind)]);
    out->append(",\"tokens\":");
    append_int(out, c.tokens);
    out->append(",\"text\":");
    append_json_string(out, text);
    out->push_back('}');
  }
  out->append("],");
  error_obj(r, out);
  out->append("}\n");
}

Status write_jsonl(const std::string& path, const std::vector<RequestRecord>& records,
                   const record::RunAnchor& anchor, bool raw,
                   const std::vector<std::string_view>& payloads) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return make_error(ErrorCode::kIo,
                      fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  }
  std::string buf;
  buf.reserve(1 << 20);
  bool ok = true;
  for (const RequestRecord& r : records) {
    if (raw) {
      append_raw_line(r, anchor, payloads, &buf);
    } else {
      append_record_line(r, anchor, &buf);
    }
    if (buf.size() >= (1 << 20)) {
      ok &= std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
      buf.clear();
    }
  }
  ok &= std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
  ok &= std::fclose(f) == 0;
  if (!ok) return make_error(ErrorCode::kIo, fmt::format("cannot write {}: disk full?", path));
  return {};
}

}  // namespace servebench::exporter
