// The comparison's outputs: comparability warnings, the console table and the page's data.
#include <cmath>
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compare/compare.h"

namespace servebench::compare {
namespace {

using Json = nlohmann::ordered_json;

std::string shown(double v) {
  if (!std::isfinite(v)) return "-";
  return fmt::format("{:.4g}", v);
}

Json num(double v) { return std::isfinite(v) ? Json(v) : Json(); }

double mean_of(const report_html::RunFiles& r, const char* tag) {
  const report_html::MetricRow* m = r.meta.find(tag);
  double v = NAN;
  if (m == nullptr || !m->get("avg", &v)) return NAN;
  return v;
}

}  // namespace

std::vector<std::string> comparability_warnings(const std::vector<report_html::RunFiles>& runs,
                                                const std::vector<std::string>& labels) {
  std::vector<std::string> out;
  const report_html::RunMeta& a = runs[0].meta;
  for (size_t i = 1; i < runs.size(); ++i) {
    const report_html::RunMeta& b = runs[i].meta;
    auto differs = [&](const char* what, const std::string& x, const std::string& y) {
      if (x != y)
        out.push_back(fmt::format("{} differs: {} has '{}', {} has '{}'", what, labels[0], x,
                                  labels[i], y));
    };
    differs("model", a.model, b.model);
    differs("endpoint type", a.endpoint_type, b.endpoint_type);
    differs("streaming", a.streaming ? "on" : "off", b.streaming ? "on" : "off");
    differs("load mode", a.load_mode, b.load_mode);
    differs("requested ISL", a.isl_requested < 0 ? "default" : fmt::format("{}", a.isl_requested),
            b.isl_requested < 0 ? "default" : fmt::format("{}", b.isl_requested));
    differs("requested OSL", a.osl_requested < 0 ? "default" : fmt::format("{}", a.osl_requested),
            b.osl_requested < 0 ? "default" : fmt::format("{}", b.osl_requested));
    for (const char* tag : {"input_sequence_length", "output_sequence_length"}) {
      const double x = mean_of(runs[0], tag), y = mean_of(runs[i], tag);
      if (std::isfinite(x) && std::isfinite(y) && x > 0 && std::fabs(y - x) / x > 0.10) {
        out.push_back(fmt::format("measured mean {} differs by more than 10 %: {} {:.4g}, {} {:.4g}",
                                  tag, labels[0], x, labels[i], y));
      }
    }
    if (!runs[i].has_records || !runs[0].has_records) {
      out.push_back(fmt::format("{} has no profile_export.jsonl: its percentiles have no interval",
                                runs[i].has_records ? labels[0] : labels[i]));
    }
  }
  return out;
}

std::string comparison_text(const Comparison& c) {
  std::string out = fmt::format(
      "servebench compare: {} runs, baseline {}; 95 % bootstrap intervals of the difference, "
      "{} resamples, seed {} (avg: normal interval)\n",
      c.labels.size(), c.labels[0], c.resamples, c.seed);
  for (size_t i = 0; i < c.labels.size(); ++i) out += fmt::format("  [{}] {}\n", i, c.labels[i]);
  for (const auto& w : c.warnings) out += "warning: " + w + "\n";
  // The metric column is as wide as its widest "tag (unit)", so no name is cut.
  size_t w = 6;
  for (const Row& r : c.rows) w = std::max(w, r.tag.size() + r.unit.size() + 3);
  out += fmt::format("\n{:<{}} {:>5}", "metric", w, "stat");
  for (size_t i = 0; i < c.labels.size(); ++i) out += fmt::format(" {:>12}", fmt::format("[{}]", i));
  out += fmt::format("  {:>12} {:>9} {:>25}  {}\n", "diff", "diff %", "95 % interval", "verdict");
  for (const Row& r : c.rows) {
    for (size_t k = 0; k < r.versus.size(); ++k) {
      const Versus& v = r.versus[k];
      std::string name = k == 0 ? fmt::format("{} ({})", r.tag, r.unit) : "";
      out += fmt::format("{:<{}} {:>5}", name, w, k == 0 ? r.stat : "");
      for (size_t i = 0; i < r.values.size(); ++i)
        out += fmt::format(" {:>12}", k == 0 ? shown(r.values[i]) : "");
      const std::string iv =
          v.has_interval ? fmt::format("[{}, {}]", shown(v.low), shown(v.high)) : "-";
      out += fmt::format("  {:>12} {:>9} {:>25}  [{}] {}\n", shown(v.diff),
                         std::isfinite(v.diff_pct) ? fmt::format("{:+.1f}%", v.diff_pct) : "-",
                         iv, v.run, verdict_name(v.verdict));
    }
  }
  return out;
}

std::string compare_data_json(const std::vector<report_html::RunFiles>& runs, const Comparison& c) {
  Json rows = Json::array();
  for (const Row& r : c.rows) {
    Json values = Json::array(), versus = Json::array();
    for (double v : r.values) values.push_back(num(v));
    for (const Versus& v : r.versus) {
      versus.push_back({{"run", v.run}, {"diff", num(v.diff)}, {"diff_pct", num(v.diff_pct)},
                        {"ci_low", num(v.low)}, {"ci_high", num(v.high)},
                        {"verdict", verdict_name(v.verdict)}});
    }
    rows.push_back({{"tag", r.tag}, {"header", r.header}, {"unit", r.unit}, {"stat", r.stat},
                    {"better", r.better == Better::kLower    ? "lower"
                               : r.better == Better::kHigher ? "higher"
                                                             : "neither"},
                    {"values", values}, {"versus", versus}});
  }
  Json run_list = Json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    // Each run's report data, without the per-request arrays (the overlays use the
    // distributions and series).
    Json d = Json::parse(report_html::report_data_json(runs[i], "", 1), nullptr, false);
    d.erase("requests");
    d["label"] = c.labels[i];
    run_list.push_back(std::move(d));
  }
  Json j{{"kind", "compare"}, {"format", 1}, {"warnings", c.warnings}, {"runs", run_list},
         {"comparison", {{"resamples", c.resamples}, {"seed", c.seed}, {"rows", rows}}}};
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace servebench::compare
