#include "export/summary_json.h"

#include <cmath>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/text_util.h"
#include "metrics/metric_info.h"
#include "metrics/stats.h"

namespace servebench::exporter {

using json = nlohmann::ordered_json;
using metrics::MetricResult;
using metrics::Stats;

namespace {

json number(double v, bool integer_valued = false) {
  if (!std::isfinite(v)) return nullptr;
  if (integer_valued && v == std::floor(v) && std::abs(v) < 9.0e15) {
    return static_cast<int64_t>(v);
  }
  return v;
}

json stats_block(std::string_view unit, const Stats& s, double divisor, bool integer_valued) {
  json j;
  j["unit"] = unit;
  j["avg"] = number(s.avg / divisor);
  for (size_t i = 0; i < metrics::kPercentiles.size(); ++i) {
    j[metrics::kPercentileNames[i]] = number(s.p[i] / divisor, integer_valued && divisor == 1);
  }
  j["min"] = number(s.min / divisor, integer_valued && divisor == 1);
  j["max"] = number(s.max / divisor, integer_valued && divisor == 1);
  if (s.has_std) j["std"] = number(s.std / divisor);
  j["count"] = s.count;
  j["sum"] = number(s.sum / divisor, integer_valued && divisor == 1);
  return j;
}

json metric_block(const MetricResult& m) {
  const auto* info = m.info;
  if (m.distribution) {
    return stats_block(info->display_unit, m.stats, info->display_divisor,
                       info->has(metrics::kIntegerValued));
  }
  json j;
  j["unit"] = info->display_unit;
  if (info->has(metrics::kTimestamp)) {
    j["avg"] = m.int_value;
  } else {
    j["avg"] = number(info->to_display(m.value), info->has(metrics::kIntegerValued));
  }
  return j;
}

// AIPerf's rows at the top level; servebench's own rows go under "servebench".
void add_metrics(json* out, const metrics::Summary& s) {
  for (const MetricResult& m : s.metrics) {
    if (!m.info->has(metrics::kServebench)) (*out)[std::string(m.tag())] = metric_block(m);
  }
}

// input_config is redacted structurally where it is built (config::to_json: -H values, the key,
// URL user info); here every string also loses the registered secret literals, whatever field
// they ended up in. Key names are not guessed at: "tokenizer" or "max_tokens" are not secrets.
void redact(json& j) {
  if (j.is_object() || j.is_array()) {
    for (auto& e : j) redact(e);
  } else if (j.is_string()) {
    j = scrub_secrets(j.get<std::string>());
  }
}

json input_config(const std::string& text) {
  if (text.empty()) return json::object();
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return json::object();
  redact(j);
  return j;
}

}  // namespace

std::string format_wall_time(int64_t wall_ns) {
  std::time_t secs = static_cast<std::time_t>(wall_ns / 1'000'000'000);
  int64_t micros = (wall_ns % 1'000'000'000) / 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}+00:00", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, micros);
}

std::string redact_config_json(const std::string& text) { return input_config(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::string render_summary_json(const JsonInput& in) {
  const RunContext& c = *in.context;
  const metrics::Summary& s = *in.profiling;
  json j;
  j["schema_version"] = kSchemaVersion;
  j["servebench_version"] = "0.1.0";
  j["benchmark_id"] = c.benchmark_id;
  j["start_time"] = c.start_wall_ns ? json(format_wall_time(c.start_wall_ns)) : json(nullptr);
  j["end_time"] = c.end_wall_ns ? json(format_wall_time(c.end_wall_ns)) : json(nullptr);
  j["was_cancelled"] = c.interrupted;
  // AIPerf 0.13: false (with the reason) when the run stopped before every record was in.
  j["is_complete"] = !c.interrupted;
  if (c.interrupted) j["incomplete_reason"] = "Run cancelled before all records were processed.";
  j["input_config"] = input_config(c.input_config_json);
  json run_info;
  run_info["benchmark_id"] = c.benchmark_id;
  run_info["sweep_id"] = nullptr;
  run_info["random_seed"] = c.has_random_seed ? json(c.random_seed) : json(nullptr);
  run_info["trial"] = 0;
  run_info["run_label"] = "run_0001";
  run_info["variation_label"] = "base";
  run_info["variation_index"] = 0;
  run_info["variation_values"] = json::object();
  run_info["cli_command"] =
      c.cli_command.empty() ? json(nullptr) : json(scrub_secrets(c.cli_command));
  j["run_info"] = run_info;
  json errors = json::array();
  for (const auto& g : s.error_summary) {
    json d;
    d["code"] = g.code ? json(g.code) : json(nullptr);
    d["type"] = g.type;
    d["message"] = scrub_secrets(g.message);
    errors.push_back({{"error_details", d}, {"count", g.count}});
  }
  j["error_summary"] = errors;
  add_metrics(&j, s);
  if (in.warmup != nullptr) {
    json w = json::object();
    add_metrics(&w, *in.warmup);
    j["warmup_metrics"] = w;
  }

  for (const auto& [key, text] : in.extra_json) {
    json v = json::parse(text, nullptr, false);
    if (!v.is_discarded()) j[key] = std::move(v);
  }

  // Ours.
  const auto& x = s.extras;
  json sb;
  for (const MetricResult& m : s.metrics) {
    if (m.info->has(metrics::kServebench) && m.distribution) {
      sb[std::string(m.tag())] = metric_block(m);
    }
  }
  sb["late_send_threshold_ms"] = static_cast<double>(metrics::kLateSendThresholdNs) / 1e6;
  sb["late_sends"] = x.late_sends;
  sb["late_send_fraction"] = number(x.late_send_fraction);
  sb["client_limited"] = x.client_limited;
  sb["client_limited_reason"] =
      x.client_limited ? json(x.client_limited_reason) : json(nullptr);
  sb["peak_concurrency"] = x.peak_concurrency;
  sb["avg_concurrency"] = number(x.avg_concurrency);
  sb["cancelled_request_count"] = x.cancelled_request_count;
  json by_kind = json::object();
  for (const auto& [kind, n] : x.errors_by_kind) by_kind[kind] = n;
  sb["errors_by_kind"] = by_kind;
  sb["usage_discrepancy_count"] = s.usage_discrepancy_count;
  sb["osl_mismatch_count"] = s.osl_mismatch_count;
  json gates;
  gates["conditions"] = in.fail_on;
  gates["failed"] = in.gate_failed;
  gates["messages"] = in.gate_messages;
  sb["fail_on"] = gates;
  sb["goodput_slos"] = in.goodput;
  json warnings = json::array();
  for (const auto& w : c.warnings) warnings.push_back(scrub_secrets(w));
  sb["warnings"] = warnings;
  j["servebench"] = sb;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void write_inputs_json(const std::vector<InputSession>& sessions,
                       const std::function<void(std::string_view)>& sink,
                       const std::function<void(std::string_view)>& written) {
  // Each payload is written as the exact bytes that were sent (only registered secret literals
  // are replaced), so inputs.json replays byte for byte. A payload that is not JSON is kept as a
  // string. The layout around the payloads follows json::dump(2).
  sink("{\n  \"data\": [");
  std::string head;
  for (size_t i = 0; i < sessions.size(); ++i) {
    const InputSession& s = sessions[i];
    head = i ? ",\n    {\n      \"session_id\": " : "\n    {\n      \"session_id\": ";
    append_json_string(&head, s.session_id);
    head += ",\n      \"payloads\": [";
    sink(head);
    for (size_t k = 0; k < s.payloads_json.size(); ++k) {
      sink(k ? ",\n        " : "\n        ");
      std::string body = scrub_secrets(s.payloads_json[k]);
      if (json::accept(body)) {
        sink(body);
      } else {
        // Not JSON (a multipart form): a string. Bytes that are not UTF-8 (an uploaded image)
        // become U+FFFD, so the file stays valid JSON.
        sink(json(body).dump(-1, ' ', false, json::error_handler_t::replace));
      }
      if (written) written(s.payloads_json[k]);
    }
    sink(s.payloads_json.empty() ? "]\n    }" : "\n      ]\n    }");
  }
  sink(sessions.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

std::string render_inputs_json(const std::vector<InputSession>& sessions) {
  std::string out;
  write_inputs_json(sessions, [&out](std::string_view piece) { out.append(piece); });
  return out;
}

std::string render_timeslices_json(const RunContext& context,
                                   const std::vector<metrics::TimeSlice>& slices) {
  json j;
  json arr = json::array();
  for (const auto& sl : slices) {
    json t;
    t["timeslice_index"] = sl.index;
    t["start_ns"] = context.anchor.to_wall_ns(sl.start_ns);
    t["end_ns"] = context.anchor.to_wall_ns(sl.end_ns);
    // AIPerf writes is_complete only for the last slice clipped to the run's end.
    if (!sl.complete) t["is_complete"] = false;
    add_metrics(&t, sl.summary);
    arr.push_back(t);
  }
  j["timeslices"] = arr;
  j["input_config"] = input_config(context.input_config_json);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace servebench::exporter
