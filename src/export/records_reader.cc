#include "export/records_reader.h"

#include <cmath>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/records_jsonl.h"

namespace servebench::exporter {

namespace {

using nlohmann::json;
using record::ChunkKind;
using record::RequestRecord;

int64_t int_or(const json& obj, const char* k, int64_t fallback) {
  auto it = obj.find(k);
  if (it == obj.end() || !it->is_number()) return fallback;
  return it->is_number_integer() ? it->get<int64_t>() : std::llround(it->get<double>());
}

std::string str_or(const json& obj, const char* k) {
  auto it = obj.find(k);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A metric's value in base units (display × divisor; ms → ns is the only scaled unit the
// reader needs), or NaN when the line does not carry it.
double metric(const json& metrics, const char* tag, double to_base = 1.0) {
  auto it = metrics.find(tag);
  if (it == metrics.end() || !it->is_object()) return NAN;
  auto v = it->find("value");
  if (v == it->end() || !v->is_number()) return NAN;
  return v->get<double>() * to_base;
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

void read_metadata(const json& m, RequestRecord* r) {
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
}

void read_error(const json& line, RequestRecord* r) {
  auto it = line.find("error");
  if (it == line.end() || !it->is_object()) return;
  r->error = error_kind_from(str_or(*it, "type"));
  r->error_message = str_or(*it, "message");
  // The exported code is the HTTP status only for HTTP failures; "http_status" (ours) wins.
  r->http_status = static_cast<int32_t>(int_or(*it, "code", 0));
  if (r->cancelled()) r->http_status = 0;
}

void read_usage_and_bytes(const json& metrics, RequestRecord* r) {
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
  r->request_bytes = std::max<int64_t>(0, count("http_req_data_sent"));
  r->response_bytes = std::max<int64_t>(0, count("http_req_data_received"));
  r->connection_reused = metric(metrics, "http_req_connection_reused") > 0;
  r->usage.spec_steps = count("spec_decode_steps");
  r->usage.spec_accepted_tokens = count("spec_decode_accepted_draft_tokens");
  r->usage.spec_draft_tokens = count("spec_decode_draft_tokens");
}

// Content chunks of a successful request, at their exact times.
void read_chunks(const json& metrics, const json& sb, RequestRecord* r) {
  if (!r->ok()) return;
  std::vector<int64_t> times;
  if (r->streaming) {
    const double ttft = metric(metrics, "time_to_first_token");
    if (std::isnan(ttft)) return;
    times.push_back(r->request_start_ns + ms_to_exact_ns(ttft));
    auto icl = metrics.find("inter_chunk_latency");
    if (icl != metrics.end() && icl->is_object() && icl->contains("value") &&
        (*icl)["value"].is_array()) {
      for (const auto& gap : (*icl)["value"]) {
        times.push_back(times.back() + (gap.is_number() ? ms_to_exact_ns(gap.get<double>()) : 0));
      }
    }
  } else {
    const double latency = metric(metrics, "request_latency");
    if (std::isnan(latency)) return;
    times.push_back(r->request_start_ns + ms_to_exact_ns(latency));
  }
  std::string kinds = str_or(sb, "chunk_kinds");
  if (kinds.empty()) kinds.assign(times.size(), 'c');
  const json* tokens = nullptr;
  if (auto t = sb.find("chunk_tokens"); t != sb.end() && t->is_array()) tokens = &*t;
  r->chunks.reserve(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    record::Chunk c;
    // A body's chunks all arrived with it; a streamed chunk past the listed times is a
    // malformed line, kept at the last known time rather than dropped.
    c.recv_ns = times[std::min(i, times.size() - 1)];
    c.kind = kinds[i] == 'r' ? ChunkKind::kReasoning
             : kinds[i] == 't' ? ChunkKind::kToolCall
                               : ChunkKind::kContent;
    c.tokens = 1;
    if (tokens != nullptr && i < tokens->size() && (*tokens)[i].is_number_integer()) {
      c.tokens = (*tokens)[i].get<int32_t>();
    }
    r->chunks.push_back(c);
  }
}

}  // namespace

Result<RequestRecord> parse_record_line(std::string_view line) {
  json j = json::parse(line.begin(), line.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("metadata") ||
      !j["metadata"].is_object()) {
    return make_error(ErrorCode::kParse, "not a profile_export.jsonl record line");
  }
  static const json kEmpty = json::object();
  const json& metrics = j.contains("metrics") && j["metrics"].is_object() ? j["metrics"] : kEmpty;
  const json& sb =
      j.contains("servebench") && j["servebench"].is_object() ? j["servebench"] : kEmpty;
  RequestRecord r;
  read_metadata(j["metadata"], &r);
  read_error(j, &r);
  r.request_index = static_cast<uint64_t>(int_or(sb, "request_index", 0));
  r.http_status = static_cast<int32_t>(int_or(sb, "http_status", r.http_status));
  r.streaming = sb.contains("streaming")
                    ? sb["streaming"].is_boolean() && sb["streaming"].get<bool>()
                    : metrics.contains("time_to_first_token");
  r.input_tokens = int_or(sb, "input_tokens", -1);
  r.output_tokens = int_or(sb, "output_tokens", -1);
  r.reasoning_tokens = int_or(sb, "reasoning_tokens", -1);
  r.requested_output_tokens = int_or(sb, "requested_output_tokens", -1);
  r.output_items = int_or(sb, "output_items", -1);
  r.request_sent_ns = int_or(sb, "request_sent_ns", 0);
  r.response_complete_ns = int_or(sb, "response_complete_ns", 0);
  r.conn_start_ns = int_or(sb, "connect_start_ns", 0);
  r.dns_done_ns = int_or(sb, "dns_done_ns", 0);
  r.connected_ns = int_or(sb, "connected_ns", 0);
  r.tls_done_ns = int_or(sb, "tls_done_ns", 0);
  r.response_reads = static_cast<int32_t>(int_or(sb, "response_reads", 0));
  if (r.cancelled()) {
    // Without our key (an AIPerf line) every cancellation is a counted one, as in AIPerf.
    r.cancel_reason = sb.contains("cancel_reason") ? cancel_reason_from(str_or(sb, "cancel_reason"))
                                                   : record::CancelReason::kRate;
  }
  if (!r.cancelled()) r.cancel_ns = 0;
  read_usage_and_bytes(metrics, &r);
  read_chunks(metrics, sb, &r);
  return r;
}

Status for_each_record(const std::string& path,
                       const std::function<void(RequestRecord&&)>& fn) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto r = parse_record_line(line);
    if (!r) {
      return make_error(ErrorCode::kParse,
                        fmt::format("{}:{}: {}", path, number, r.error().message));
    }
    fn(std::move(*r));
  }
  if (in.bad()) return make_error(ErrorCode::kIo, fmt::format("cannot read {}", path));
  return {};
}

Result<std::vector<RequestRecord>> read_records(const std::string& path) {
  std::vector<RequestRecord> out;
  auto st = for_each_record(path, [&](RequestRecord&& r) { out.push_back(std::move(r)); });
  if (!st) return tl::unexpected(st.error());
  return out;
}

}  // namespace servebench::exporter
