#include "experiment/sweep_export.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace servebench::experiment {
namespace {

using Json = nlohmann::json;

const char* status_of(const CellResult& c) {
  int ok = 0;
  for (const auto& t : c.trials) ok += t.ok ? 1 : 0;
  if (c.trials.empty()) return "not run";
  if (ok == 0) return "failed";
  return ok == static_cast<int>(c.trials.size()) ? "ok" : "partial";
}

int ok_trials(const CellResult& c) {
  int ok = 0;
  for (const auto& t : c.trials) ok += t.ok ? 1 : 0;
  return ok;
}

std::string first_error(const CellResult& c) {
  for (const auto& t : c.trials)
    if (!t.ok) return t.error;
  return "";
}

}  // namespace

const std::vector<std::string>& headline_metrics() {
  static const std::vector<std::string> kKeys = {
      "request_throughput_avg",     "output_token_throughput_avg", "goodput_avg",
      "time_to_first_token_avg",    "time_to_first_token_p50",     "time_to_first_token_p99",
      "inter_token_latency_avg",    "inter_token_latency_p99",     "request_latency_avg",
      "request_latency_p99",        "request_count_avg",           "error_request_count_avg"};
  return kKeys;
}

std::string sweep_json(const ExperimentPlan& plan, const std::vector<CellResult>& cells) {
  const double conf = plan.base.experiment.confidence_level;
  Json params = Json::array();
  if (!plan.cells.empty())
    for (const auto& a : plan.cells.front().cell.values) params.push_back(a.name);
  const char* type = plan.base.experiment.sweep_scenarios_json.empty()
                         ? (plan.base.experiment.sweep_type == config::SweepType::kZip ? "zip" : "grid")
                         : "scenarios";
  Json meta = {{"sweep_type", type},
               {"parameters", params},
               {"num_cells", plan.cells.size()},
               {"num_profile_runs", plan.trials},
               {"confidence_level", conf}};
  Json rows = Json::array();
  for (const auto& c : cells) {
    Json values = Json::object();
    for (const auto& a : c.cell.values) values[a.name] = a.value;
    Json seeds = Json::array();
    for (const auto& t : c.trials) seeds.push_back(t.seed);
    Json metrics = Json::object();
    const auto stats = aggregate_trials(c.trials, conf);
    for (const auto& key : headline_metrics()) {
      auto it = stats.find(key);
      if (it == stats.end()) continue;
      Json m = {{"mean", it->second.mean}};
      if (it->second.n > 1) {
        m["std"] = it->second.std;
        m["ci_low"] = it->second.ci_low;
        m["ci_high"] = it->second.ci_high;
      }
      for (const auto& t : c.trials)
        if (auto u = t.metrics.units.find(key); u != t.metrics.units.end()) {
          m["unit"] = u->second;
          break;
        }
      metrics[key] = m;
    }
    rows.push_back({{"index", c.cell.index},
                    {"label", c.cell.label},
                    {"parameters", values},
                    {"status", status_of(c)},
                    {"trials", c.trials.size()},
                    {"successful_trials", ok_trials(c)},
                    {"converged", c.converged},
                    {"random_seeds", seeds},
                    {"cli_command", c.trials.empty() ? Json(nullptr)
                                                     : Json(c.trials.front().cli_command)},
                    {"artifact_dir", c.dir},
                    {"error", first_error(c)},
                    {"metrics", metrics}});
  }
  return Json{{"metadata", meta}, {"cells", rows}}.dump(2) + "\n";
}

std::string sweep_csv(const ExperimentPlan& plan, const std::vector<CellResult>& cells) {
  const double conf = plan.base.experiment.confidence_level;
  std::vector<std::string> params;
  if (!plan.cells.empty())
    for (const auto& a : plan.cells.front().cell.values) params.push_back(a.name);
  std::string out = "Index,Label";
  for (const auto& p : params) out += "," + p;
  out += ",Status,Trials";
  for (const auto& k : headline_metrics()) out += fmt::format(",{},{} CI Low,{} CI High", k, k, k);
  out += "\n";
  for (const auto& c : cells) {
    out += fmt::format("{},{}", c.cell.index, c.cell.label);
    for (const auto& p : params) {
      std::string v;
      for (const auto& a : c.cell.values)
        if (a.name == p) v = a.value;
      out += "," + v;
    }
    out += fmt::format(",{},{}", status_of(c), ok_trials(c));
    const auto stats = aggregate_trials(c.trials, conf);
    for (const auto& k : headline_metrics()) {
      auto it = stats.find(k);
      if (it == stats.end()) {
        out += ",,,";
        continue;
      }
      if (it->second.n > 1)
        out += fmt::format(",{:.6g},{:.6g},{:.6g}", it->second.mean, it->second.ci_low,
                           it->second.ci_high);
      else
        out += fmt::format(",{:.6g},,", it->second.mean);
    }
    out += "\n";
  }
  return out;
}

std::string sweep_table_header() {
  return fmt::format("{:<32} {:>8} {:>18} {:>18} {:>18} {:>18}", "cell", "status", "req/s",
                     "TTFT p99 ms", "ITL p99 ms", "latency p99 ms");
}

std::string sweep_table_row(const CellResult& c, double confidence) {
  const auto stats = aggregate_trials(c.trials, confidence);
  auto cellv = [&](const char* key) -> std::string {
    auto it = stats.find(key);
    if (it == stats.end()) return "-";
    if (it->second.n < 2) return fmt::format("{:.2f}", it->second.mean);
    return fmt::format("{:.2f}±{:.2f}", it->second.mean, it->second.ci_high - it->second.mean);
  };
  std::string label = c.cell.label.empty() ? "(base)" : c.cell.label;
  if (label.size() > 32) label = label.substr(0, 31) + "~";
  return fmt::format("{:<32} {:>8} {:>18} {:>18} {:>18} {:>18}", label, status_of(c),
                     cellv("request_throughput_avg"), cellv("time_to_first_token_p99"),
                     cellv("inter_token_latency_p99"), cellv("request_latency_p99"));
}

}  // namespace servebench::experiment
