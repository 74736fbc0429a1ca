#include "experiment/aggregate.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "experiment/student_t.h"

namespace servebench::experiment {

using Json = nlohmann::json;

TrialStats summarize_trials(const std::vector<double>& values, double confidence) {
  TrialStats s;
  s.n = static_cast<int64_t>(values.size());
  if (values.empty()) return s;
  s.min = values.front();
  s.max = values.front();
  double sum = 0;
  for (double v : values) {
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = sum / static_cast<double>(s.n);
  s.ci_low = s.ci_high = s.mean;
  if (s.n < 2) return s;
  double ss = 0;
  for (double v : values) ss += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(ss / static_cast<double>(s.n - 1));
  s.se = s.std / std::sqrt(static_cast<double>(s.n));
  s.cv = s.mean != 0 ? s.std / std::fabs(s.mean)
                     : (s.std == 0 ? 0 : std::numeric_limits<double>::infinity());
  s.t_critical = t_critical(confidence, static_cast<double>(s.n - 1));
  s.ci_low = s.mean - s.t_critical * s.se;
  s.ci_high = s.mean + s.t_critical * s.se;
  return s;
}

Result<RunMetrics> parse_run_metrics(const std::string& summary_json) {
  const Json doc = Json::parse(summary_json, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return make_error(ErrorCode::kInvalidArgument, "not a summary JSON object");
  RunMetrics out;
  for (const auto& [tag, block] : doc.items()) {
    if (!block.is_object() || !block.contains("unit") || !block["unit"].is_string()) continue;
    for (const auto& [stat, v] : block.items()) {
      if (!v.is_number() || stat == "count") continue;
      const std::string key = tag + "_" + stat;
      out.values[key] = v.get<double>();
      out.units[key] = block["unit"].get<std::string>();
    }
  }
  return out;
}

Result<RunMetrics> read_run_metrics(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, path + ": cannot be read");
  std::ostringstream ss;
  ss << in.rdbuf();
  auto m = parse_run_metrics(ss.str());
  if (!m) return make_error(ErrorCode::kInvalidArgument, path + ": " + m.error().message);
  return m;
}

std::map<std::string, TrialStats> aggregate_trials(const std::vector<Trial>& trials,
                                                   double confidence) {
  std::map<std::string, std::vector<double>> columns;
  int64_t ok = 0;
  for (const auto& t : trials) {
    if (!t.ok) continue;
    ++ok;
    for (const auto& [k, v] : t.metrics.values) columns[k].push_back(v);
  }
  std::map<std::string, TrialStats> out;
  for (const auto& [k, vs] : columns)
    if (static_cast<int64_t>(vs.size()) == ok) out[k] = summarize_trials(vs, confidence);
  return out;
}

namespace {

Json finite_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

std::string unit_of(const std::vector<Trial>& trials, const std::string& key) {
  for (const auto& t : trials)
    if (auto it = t.metrics.units.find(key); it != t.metrics.units.end()) return it->second;
  return "";
}

}  // namespace

std::string aggregate_json(const std::vector<Trial>& trials, int64_t planned, double confidence) {
  Json meta = {{"aggregation_type", "confidence"},
               {"num_profile_runs", planned},
               {"num_trials_run", trials.size()},
               {"confidence_level", confidence}};
  Json labels = Json::array();
  Json failed = Json::array();
  Json seeds = Json::array();
  Json commands = Json::array();
  int64_t ok = 0;
  for (const auto& t : trials) {
    labels.push_back(t.label);
    seeds.push_back(t.seed);
    commands.push_back(t.cli_command);
    if (t.ok)
      ++ok;
    else
      failed.push_back({{"label", t.label}, {"exit_code", t.exit_code}, {"error", t.error}});
  }
  meta["num_successful_runs"] = ok;
  meta["run_labels"] = labels;
  meta["random_seeds"] = seeds;
  // AIPerf's field: the command that reruns the configuration (the first trial's); every
  // trial's own command in run order (they differ in the seed or the warm-up).
  meta["cli_command"] = trials.empty() ? Json(nullptr) : Json(trials.front().cli_command);
  meta["cli_commands"] = commands;
  meta["failed_runs"] = failed;
  Json metrics = Json::object();
  for (const auto& [k, s] : aggregate_trials(trials, confidence)) {
    metrics[k] = {{"mean", s.mean},     {"std", s.std},
                  {"min", s.min},       {"max", s.max},
                  {"cv", finite_or_null(s.cv)}, {"se", s.se},
                  {"ci_low", s.ci_low}, {"ci_high", s.ci_high},
                  {"t_critical", s.t_critical}, {"count", s.n},
                  {"unit", unit_of(trials, k)}};
  }
  return Json{{"metadata", meta}, {"metrics", metrics}}.dump(2) + "\n";
}

std::string aggregate_csv(const std::vector<Trial>& trials, double confidence) {
  std::string out = "Metric,Unit,Mean,Std,Min,Max,CV,SE,CI Low,CI High,t Critical,Count\n";
  for (const auto& [k, s] : aggregate_trials(trials, confidence))
    out += fmt::format("{},{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{}\n", k,
                       unit_of(trials, k), s.mean, s.std, s.min, s.max, s.cv, s.se, s.ci_low,
                       s.ci_high, s.t_critical, s.n);
  return out;
}

bool converged(const std::vector<Trial>& trials, const std::string& metric, const std::string& mode,
               double threshold, double confidence) {
  std::vector<double> vs;
  for (const auto& t : trials)
    if (t.ok)
      if (auto it = t.metrics.values.find(metric); it != t.metrics.values.end())
        vs.push_back(it->second);
  if (vs.size() < 3) return false;
  const TrialStats s = summarize_trials(vs, confidence);
  if (mode == "cv") return s.cv <= threshold;
  if (s.mean == 0) return s.ci_high == s.ci_low;
  return (s.ci_high - s.ci_low) / std::fabs(s.mean) <= threshold;
}

}  // namespace servebench::experiment
