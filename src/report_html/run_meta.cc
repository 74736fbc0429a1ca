#include "report_html/run_meta.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "metrics/metric_info.h"

namespace servebench::report_html {
namespace {

using json = nlohmann::ordered_json;

const json& at(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string text(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

double number(const json& j, double fallback) {
  return j.is_number() ? j.get<double>() : fallback;
}

// A metric object: {"unit": ..., "avg": ..., "p1": ...}.
bool is_metric(const json& j) { return j.is_object() && j.contains("unit") && j.contains("avg"); }

MetricRow make_row(const std::string& tag, const json& j, bool ours) {
  MetricRow row;
  row.tag = tag;
  row.unit = text(at(j, "unit"));
  row.servebench = ours;
  const metrics::MetricInfo* info = metrics::find_metric(tag);
  row.header = info != nullptr ? std::string(info->header) : tag;
  row.larger_is_better = info != nullptr && info->has(metrics::kLargerIsBetter);
  for (const auto& [k, v] : j.items()) {
    if (k != "unit" && v.is_number()) row.stats.emplace_back(k, v.get<double>());
  }
  return row;
}

std::string load_mode(const json& loadgen) {
  if (const json& c = at(loadgen, "concurrency"); c.is_number() && !at(loadgen, "request_rate").is_number())
    return fmt::format("concurrency {}", c.dump());
  if (const json& r = at(loadgen, "request_rate"); r.is_number()) {
    std::string pattern = text(at(loadgen, "arrival_pattern"));
    std::string out = fmt::format("request_rate {}", r.dump());
    if (const json& c = at(loadgen, "concurrency"); c.is_number()) out += fmt::format(" (max concurrency {})", c.dump());
    return pattern.empty() ? out : out + " (" + pattern + ")";
  }
  if (const json& u = at(loadgen, "user_centric_rate"); u.is_number())
    return fmt::format("user_centric_rate {}", u.dump());
  if (const json& c = at(loadgen, "concurrency"); c.is_number())
    return fmt::format("concurrency {}", c.dump());
  return "";
}

void add_warnings(const json& doc, RunMeta* m) {
  const json& ours = at(doc, "servebench");
  if (at(doc, "was_cancelled").is_boolean() && doc["was_cancelled"].get<bool>())
    m->warnings.push_back("The run was interrupted: it covers only what ran before the stop.");
  if (const json& cl = at(ours, "client_limited"); cl.is_boolean() && cl.get<bool>()) {
    m->warnings.push_back("Client-limited: results suspect. " + text(at(ours, "client_limited_reason")));
  }
  const double osl = number(at(at(doc, "osl_mismatch_count"), "avg"), 0);
  if (osl > 0) {
    m->warnings.push_back(fmt::format(
        "OSL mismatch: {} request(s) returned an output length that differs from the requested "
        "max_tokens by more than min(5 %, 50 tokens); the server may ignore max_tokens or stop early.",
        osl));
  }
  const double usage = number(at(at(doc, "usage_discrepancy_count"), "avg"), 0);
  if (usage > 0) {
    m->warnings.push_back(fmt::format(
        "Usage discrepancy: {} request(s) where the server's usage differs from the client's "
        "token count by more than 10 %.",
        usage));
  }
  if (const json& w = at(ours, "warnings"); w.is_array()) {
    for (const auto& e : w) {
      if (e.is_string()) m->warnings.push_back(e.get<std::string>());
    }
  }
}

}  // namespace

bool MetricRow::get(const std::string& stat, double* out) const {
  for (const auto& [k, v] : stats) {
    if (k == stat) {
      *out = v;
      return true;
    }
  }
  return false;
}

const MetricRow* RunMeta::find(const std::string& tag) const {
  for (const auto& r : metrics) {
    if (r.tag == tag) return &r;
  }
  return nullptr;
}

Result<RunMeta> read_run_meta(const std::string& json_path) {
  std::ifstream in(json_path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, fmt::format("cannot read {}", json_path));
  std::stringstream ss;
  ss << in.rdbuf();
  const json doc = json::parse(ss.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return make_error(ErrorCode::kParse, fmt::format("{} is not a JSON object", json_path));
  }
  RunMeta m;
  m.json_path = json_path;
  const json& input = at(doc, "input_config");
  const json& endpoint = at(input, "endpoint");
  m.benchmark_id = text(at(doc, "benchmark_id"));
  m.start_time = text(at(doc, "start_time"));
  m.end_time = text(at(doc, "end_time"));
  m.cli_command = text(at(at(doc, "run_info"), "cli_command"));
  m.was_cancelled = at(doc, "was_cancelled").is_boolean() && doc["was_cancelled"].get<bool>();
  if (const json& names = at(endpoint, "model_names"); names.is_array() && !names.empty())
    m.model = text(names.front());
  if (m.model.empty()) m.model = text(at(input, "model"));
  m.endpoint_type = text(at(endpoint, "type"));
  m.streaming = at(endpoint, "streaming").is_boolean() && endpoint["streaming"].get<bool>();
  m.load_mode = load_mode(at(input, "loadgen"));
  const json& prompt = at(at(input, "input"), "prompt");
  m.isl_requested = number(at(at(prompt, "input_tokens"), "mean"), -1);
  m.osl_requested = number(at(at(prompt, "output_tokens"), "mean"), -1);
  m.input_config_json = input.is_object() ? input.dump(-1, ' ', false, json::error_handler_t::replace) : "{}";
  m.error_summary_json = at(doc, "error_summary").is_array() ? doc["error_summary"].dump(-1, ' ', false, json::error_handler_t::replace) : "[]";
  for (const auto& [k, v] : doc.items()) {
    if (is_metric(v)) m.metrics.push_back(make_row(k, v, false));
  }
  for (const auto& [k, v] : at(doc, "servebench").items()) {
    if (is_metric(v)) m.metrics.push_back(make_row(k, v, true));
  }
  add_warnings(doc, &m);
  return m;
}

}  // namespace servebench::report_html
