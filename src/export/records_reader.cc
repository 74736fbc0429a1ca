#include "export/records_reader.h"

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <simdjson.h>

#include "export/records_jsonl.h"

namespace servebench::exporter {

namespace {

using record::ChunkKind;
using record::RequestRecord;
using Element = simdjson::dom::element;
using Object = simdjson::dom::object;

// The key's value when present and of the wanted kind.
bool field(Object obj, const char* k, Element* out) {
  return obj.at_key(k).get(*out) == simdjson::SUCCESS;
}

bool number(Element e, double* out) { return e.is_number() && e.get_double().get(*out) == 0; }

int64_t int_or(Object obj, const char* k, int64_t fallback) {
  Element e;
  if (!field(obj, k, &e) || !e.is_number()) return fallback;
  int64_t i = 0;
  if (e.is_int64() && e.get_int64().get(i) == simdjson::SUCCESS) return i;
  double d = 0;
  return number(e, &d) ? std::llround(d) : fallback;
}

std::string str_or(Object obj, const char* k) {
  Element e;
  std::string_view v;
  if (!field(obj, k, &e) || e.get_string().get(v) != simdjson::SUCCESS) return {};
  return std::string(v);
}

Object object_or_empty(Object obj, const char* k, Object empty) {
  Element e;
  Object o;
  if (field(obj, k, &e) && e.get_object().get(o) == simdjson::SUCCESS) return o;
  return empty;
}

// A metric's value in base units (display × divisor; ms → ns is the only scaled unit the
// reader needs), or NaN when the line does not carry it.
double metric(Object metrics, const char* tag, double to_base = 1.0) {
  Element m, v;
  Object o;
  double d = 0;
  if (!field(metrics, tag, &m) || m.get_object().get(o) != simdjson::SUCCESS) return NAN;
  if (!field(o, "value", &v) || !number(v, &d)) return NAN;
  return d * to_base;
}

// A byte count: written in KB (1024 bytes, AIPerf's unit) or, by older files, in B; -1 when
// the line does not carry it.
int64_t bytes_metric(Object metrics, const char* tag) {
  Element m, u;
  Object o;
  std::string_view unit;
  const double v = metric(metrics, tag);
  if (std::isnan(v) || !field(metrics, tag, &m) || m.get_object().get(o) != simdjson::SUCCESS)
    return -1;
  const bool kb = field(o, "unit", &u) && u.get_string().get(unit) == simdjson::SUCCESS &&
                  unit == "KB";
  return std::llround(kb ? v * 1024 : v);
}

// Exact ns from a shortest-round-trip ms value (see records_jsonl.h).
int64_t ms_to_exact_ns(double ms) { return std::llround(ms * 1e6); }

record::ErrorKind error_kind_from(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(record::ErrorKind::kOther); ++k) {
    const auto kind = static_cast<record::ErrorKind>(k);
    if (name == record::error_kind_name(kind)) return kind;
  }
  return record::ErrorKind::kOther;
}

record::CancelReason cancel_reason_from(const std::string& name) {
  for (auto r : {record::CancelReason::kRate, record::CancelReason::kGrace,
                 record::CancelReason::kInterrupt}) {
    if (name == cancel_reason_name(r)) return r;
  }
  return record::CancelReason::kNone;
}

void read_metadata(Object m, RequestRecord* r) {
  r->session_num = static_cast<int32_t>(int_or(m, "session_num", 0));
  r->x_request_id = str_or(m, "x_request_id");
  r->x_correlation_id = str_or(m, "x_correlation_id");
  r->conversation_id = str_or(m, "conversation_id");
  r->turn_index = static_cast<int32_t>(int_or(m, "turn_index", 0));
  r->intended_ns = int_or(m, "intended_ns", 0);
  r->credit_issued_ns = int_or(m, "credit_issued_ns", 0);
  r->request_start_ns = int_or(m, "request_start_ns", 0);
  r->first_byte_ns = int_or(m, "request_ack_ns", 0);
  r->end_ns = int_or(m, "request_end_ns", 0);
  const std::string worker = str_or(m, "worker_id");
  if (worker.rfind("worker_", 0) == 0) r->worker_id = std::atoi(worker.c_str() + 7);
  r->url_index = static_cast<int32_t>(int_or(m, "url_index", 0));
  r->phase = str_or(m, "benchmark_phase") == record::phase_name(record::Phase::kWarmup)
                 ? record::Phase::kWarmup
                 : record::Phase::kProfiling;
  r->cancel_ns = int_or(m, "cancellation_time_ns", 0);
  r->phase_index = static_cast<uint8_t>(int_or(m, "phase_index", 0));
}

void read_error(Object line, RequestRecord* r) {
  Element e;
  Object err;
  if (!field(line, "error", &e) || e.get_object().get(err) != simdjson::SUCCESS) return;
  r->error = error_kind_from(str_or(err, "type"));
  r->error_message = str_or(err, "message");
  // The exported code is the HTTP status only for HTTP failures; "http_status" (ours) wins.
  r->http_status = static_cast<int32_t>(int_or(err, "code", 0));
  if (r->cancelled()) r->http_status = 0;
}

void read_usage_and_bytes(Object metrics, RequestRecord* r) {
  auto count = [&](const char* tag) {
    const double v = metric(metrics, tag);
    return std::isnan(v) ? int64_t{-1} : std::llround(v);
  };
  r->usage.prompt_tokens = count("usage_prompt_tokens");
  r->usage.completion_tokens = count("usage_completion_tokens");
  r->usage.total_tokens = count("usage_total_tokens");
  r->usage.reasoning_tokens = count("usage_reasoning_tokens");
  r->usage.prompt_cache_read_tokens = count("usage_prompt_cache_read_tokens");
  r->usage.prompt_cache_write_tokens = count("usage_prompt_cache_write_tokens");
  r->usage.prompt_cache_miss_tokens = count("usage_prompt_cache_miss_tokens");
  r->usage.prompt_audio_tokens = count("usage_prompt_audio_tokens");
  r->usage.completion_audio_tokens = count("usage_completion_audio_tokens");
  r->usage.accepted_prediction_tokens = count("usage_accepted_prediction_tokens");
  r->usage.rejected_prediction_tokens = count("usage_rejected_prediction_tokens");
  r->usage.tool_use_prompt_tokens = count("usage_tool_use_prompt_tokens");
  const double audio_s = metric(metrics, "usage_prompt_audio_seconds");  // written in sec
  r->usage.prompt_audio_seconds = std::isnan(audio_s) ? -1.0 : audio_s;
  r->request_bytes = std::max<int64_t>(0, bytes_metric(metrics, "http_req_data_sent"));
  r->response_bytes = std::max<int64_t>(0, bytes_metric(metrics, "http_req_data_received"));
  r->request_writes = static_cast<int32_t>(std::max<int64_t>(0, count("http_req_chunks_sent")));
  r->connection_reused = metric(metrics, "http_req_connection_reused") > 0;
  r->usage.spec_steps = count("spec_decode_steps");
  r->usage.spec_accepted_tokens = count("spec_decode_accepted_draft_tokens");
  r->usage.spec_draft_tokens = count("spec_decode_draft_tokens");
  const double video_ms = metric(metrics, "video_inference_time");  // written in ms
  r->video_inference_s = std::isnan(video_ms) ? -1.0 : video_ms / 1e3;
  const double video_mb = metric(metrics, "video_peak_memory");
  r->video_peak_memory_mb = std::isnan(video_mb) ? -1.0 : video_mb;
  const double images = metric(metrics, "num_images");
  r->input_images = std::isnan(images) ? -1 : static_cast<int32_t>(std::llround(images));
}

// The exact receive time of each content chunk: TTFT, then the inter-chunk gaps (streamed), or
// the request latency (one body).
std::vector<int64_t> chunk_times(Object metrics, const RequestRecord& r) {
  std::vector<int64_t> times;
  const double first = metric(metrics, r.streaming ? "time_to_first_token" : "request_latency");
  if (std::isnan(first)) return times;
  times.push_back(r.request_start_ns + ms_to_exact_ns(first));
  if (!r.streaming) return times;
  Element icl, gaps;
  Object o;
  simdjson::dom::array a;
  if (!field(metrics, "inter_chunk_latency", &icl) || icl.get_object().get(o) != 0 ||
      !field(o, "value", &gaps) || gaps.get_array().get(a) != 0)
    return times;
  for (Element gap : a) {
    double d = 0;
    times.push_back(times.back() + (number(gap, &d) ? ms_to_exact_ns(d) : 0));
  }
  return times;
}

// Content chunks of a successful request, at their exact times.
void read_chunks(Object metrics, Object sb, RequestRecord* r) {
  if (!r->ok()) return;
  const std::vector<int64_t> times = chunk_times(metrics, *r);
  if (times.empty()) return;
  std::string kinds = str_or(sb, "chunk_kinds");
  if (kinds.empty()) kinds.assign(times.size(), 'c');
  std::vector<int32_t> tokens;
  Element t;
  simdjson::dom::array ta;
  if (field(sb, "chunk_tokens", &t) && t.get_array().get(ta) == simdjson::SUCCESS) {
    for (Element e : ta) {
      int64_t v = 1;
      tokens.push_back(e.is_int64() && e.get_int64().get(v) == 0 ? static_cast<int32_t>(v) : -1);
    }
  }
  r->chunks.reserve(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    record::Chunk c;
    // A body's chunks all arrived with it; a streamed chunk past the listed times is a
    // malformed line, kept at the last known time rather than dropped.
    c.recv_ns = times[std::min(i, times.size() - 1)];
    c.kind = kinds[i] == 'r' ? ChunkKind::kReasoning
             : kinds[i] == 't' ? ChunkKind::kToolCall
                               : ChunkKind::kContent;
    c.tokens = i < tokens.size() && tokens[i] >= 0 ? tokens[i] : 1;
    r->chunks.push_back(c);
  }
}

void read_servebench(Object sb, Object metrics, RequestRecord* r) {
  r->request_index = static_cast<uint64_t>(int_or(sb, "request_index", 0));
  r->http_status = static_cast<int32_t>(int_or(sb, "http_status", r->http_status));
  Element streaming, ttft;
  bool on = false;
  r->streaming = field(sb, "streaming", &streaming)
                     ? streaming.get_bool().get(on) == simdjson::SUCCESS && on
                     : field(metrics, "time_to_first_token", &ttft);
  r->input_tokens = int_or(sb, "input_tokens", -1);
  r->output_tokens = int_or(sb, "output_tokens", -1);
  r->reasoning_tokens = int_or(sb, "reasoning_tokens", -1);
  r->requested_output_tokens = int_or(sb, "requested_output_tokens", -1);
  r->output_items = int_or(sb, "output_items", -1);
  r->request_sent_ns = int_or(sb, "request_sent_ns", 0);
  r->response_complete_ns = int_or(sb, "response_complete_ns", 0);
  r->conn_start_ns = int_or(sb, "connect_start_ns", 0);
  r->dns_done_ns = int_or(sb, "dns_done_ns", 0);
  r->connected_ns = int_or(sb, "connected_ns", 0);
  r->tls_done_ns = int_or(sb, "tls_done_ns", 0);
  r->response_reads = static_cast<int32_t>(int_or(sb, "response_reads", 0));
  if (r->cancelled()) {
    // Without our key (an AIPerf line) every cancellation is a counted one, as in AIPerf.
    Element reason;
    r->cancel_reason = field(sb, "cancel_reason", &reason)
                           ? cancel_reason_from(str_or(sb, "cancel_reason"))
                           : record::CancelReason::kRate;
  }
  if (!r->cancelled()) r->cancel_ns = 0;
}

// Parses a line that lies in a buffer with at least SIMDJSON_PADDING readable bytes after it.
Result<RequestRecord> parse_padded(simdjson::dom::parser& parser, std::string_view line) {
  Element doc;
  Object root, meta;
  Element m;
  if (parser.parse(line.data(), line.size(), false).get(doc) != simdjson::SUCCESS ||
      doc.get_object().get(root) != simdjson::SUCCESS || !field(root, "metadata", &m) ||
      m.get_object().get(meta) != simdjson::SUCCESS) {
    return make_error(ErrorCode::kParse, "not a profile_export.jsonl record line");
  }
  // An empty object to stand in for a missing section.
  static const simdjson::padded_string kEmptyText(std::string_view("{}"));
  thread_local simdjson::dom::parser empty_parser;
  thread_local Object empty = empty_parser.parse(kEmptyText).get_object().value_unsafe();
  const Object metrics = object_or_empty(root, "metrics", empty);
  const Object sb = object_or_empty(root, "servebench", empty);
  RequestRecord r;
  read_metadata(meta, &r);
  read_error(root, &r);
  read_servebench(sb, metrics, &r);
  read_usage_and_bytes(metrics, &r);
  read_chunks(metrics, sb, &r);
  return r;
}

}  // namespace

Result<RequestRecord> parse_record_line(std::string_view line) {
  const simdjson::padded_string padded(line);
  thread_local simdjson::dom::parser parser;
  return parse_padded(parser, std::string_view(padded.data(), padded.size()));
}

Status for_each_record(const std::string& path,
                       const std::function<void(RequestRecord&&)>& fn) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return make_error(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
  std::unique_ptr<FILE, int (*)(FILE*)> closer(f, &std::fclose);
  // Whole lines out of 8 MiB reads; each line is parsed in place (the buffer keeps simdjson's
  // padding after the last byte). A line longer than the buffer grows it.
  std::vector<char> buf(size_t{8} << 20);
  size_t have = 0, number = 0;
  simdjson::dom::parser parser;
  bool eof = false;
  while (!eof || have > 0) {
    if (!eof) {
      if (buf.size() - have < (size_t{1} << 20) + simdjson::SIMDJSON_PADDING) buf.resize(buf.size() * 2);
      const size_t room = buf.size() - have - simdjson::SIMDJSON_PADDING;
      const size_t n = std::fread(buf.data() + have, 1, room, f);
      if (n < room) {
        if (std::ferror(f)) return make_error(ErrorCode::kIo, fmt::format("cannot read {}", path));
        eof = true;
      }
      have += n;
    }
    size_t pos = 0;
    while (pos < have) {
      const char* start = buf.data() + pos;
      const char* nl = static_cast<const char*>(std::memchr(start, '\n', have - pos));
      if (nl == nullptr && !eof) break;  // an unfinished line: read more
      const size_t len = nl != nullptr ? static_cast<size_t>(nl - start) : have - pos;
      pos += len + (nl != nullptr ? 1 : 0);
      ++number;
      const std::string_view line(start, len);
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      auto r = parse_padded(parser, line);
      if (!r) {
        return make_error(ErrorCode::kParse,
                          fmt::format("{}:{}: {}", path, number, r.error().message));
      }
      fn(std::move(*r));
    }
    std::memmove(buf.data(), buf.data() + pos, have - pos);
    have -= pos;
    if (eof && have == 0) break;
  }
  return {};
}

Result<std::vector<RequestRecord>> read_records(const std::string& path) {
  std::vector<RequestRecord> out;
  auto st = for_each_record(path, [&](RequestRecord&& r) { out.push_back(std::move(r)); });
  if (!st) return tl::unexpected(st.error());
  return out;
}

}  // namespace servebench::exporter
