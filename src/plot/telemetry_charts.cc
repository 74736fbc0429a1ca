// Telemetry charts of one run, from the folder's own files when the run collected them:
//   gpu_telemetry_export.jsonl    → gpu_<field>_over_time, one line per GPU, for each gauge field
//                                   (counters such as energy, violations and XID are left out);
//   server_metrics_export.jsonl   → server_<family>_over_time, one line per endpoint and label
//                                   set, for each gauge family (counters and histograms are left
//                                   out; their statistics are in server_metrics_export.json).
// Time is seconds since the run's first request (RunData::origin_ns).
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "plot/chart_builders.h"
#include "plot/charts.h"

namespace servebench::plot {
namespace {

using nlohmann::json;
constexpr size_t kMaxCharts = 16;
constexpr size_t kMaxPointsPerSeries = 4000;

// field or family → series name → points
using SeriesMap = std::map<std::string, std::map<std::string, std::vector<Point>>>;

template <typename Fn>
void for_each_json_line(const std::string& path, Fn&& fn) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object()) fn(j);
  }
}

double seconds(const json& j, int64_t origin_ns) {
  const auto it = j.find("timestamp_ns");
  if (it == j.end() || !it->is_number()) return NAN;
  return (it->get<double>() - static_cast<double>(origin_ns)) / 1e9;
}

bool counter_field(const std::string& f) {
  for (const char* k : {"energy", "violation", "xid", "ecc"})
    if (f.find(k) != std::string::npos) return true;
  return false;
}

void add_point(std::vector<Point>* pts, Point p) {
  if (pts->size() < kMaxPointsPerSeries) pts->push_back(p);
}

SeriesMap gpu_series(const std::string& path, int64_t origin_ns) {
  SeriesMap out;
  for_each_json_line(path, [&](const json& j) {
    const double t = seconds(j, origin_ns);
    const auto data = j.find("telemetry_data");
    if (std::isnan(t) || data == j.end() || !data->is_object()) return;
    // Index and the UUID's tail: two hosts' GPU 0 stay apart.
    const std::string uuid = j.value("gpu_uuid", std::string());
    const std::string gpu = "GPU " + std::to_string(j.value("gpu_index", 0)) + " …" +
                            uuid.substr(uuid.size() > 6 ? uuid.size() - 6 : 0);
    for (const auto& [field, v] : data->items())
      if (v.is_number() && !counter_field(field)) add_point(&out[field][gpu], {t, v.get<double>()});
  });
  return out;
}

bool counter_family(const std::string& name) {
  return name.size() > 6 && (name.rfind("_total") == name.size() - 6 ||
                             name.rfind("_created") == name.size() - 8);
}

std::string labels_text(const json& sample) {
  std::string s;
  const auto labels = sample.find("labels");
  if (labels == sample.end() || !labels->is_object()) return s;
  for (const auto& [k, v] : labels->items())
    s += (s.empty() ? "" : ",") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  return s;
}

SeriesMap server_series(const std::string& path, int64_t origin_ns) {
  SeriesMap out;
  for_each_json_line(path, [&](const json& j) {
    const double t = seconds(j, origin_ns);
    const auto metrics = j.find("metrics");
    if (std::isnan(t) || metrics == j.end() || !metrics->is_object()) return;
    const std::string endpoint = j.value("endpoint_url", std::string());
    for (const auto& [family, samples] : metrics->items()) {
      if (counter_family(family) || !samples.is_array()) continue;
      for (const auto& s : samples) {
        const auto v = s.find("value");
        if (v == s.end() || !v->is_number() || s.contains("histogram")) continue;
        const std::string lt = labels_text(s);
        add_point(&out[family][endpoint + (lt.empty() ? "" : " {" + lt + "}")],
                  {t, v->get<double>()});
      }
    }
  });
  return out;
}

std::string file_stem(const std::string& name) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

void add_charts(const SeriesMap& map, const std::string& prefix, const std::string& title_prefix,
                std::vector<Chart>* out) {
  size_t n = 0;
  for (const auto& [name, series] : map) {
    if (n++ == kMaxCharts) break;
    Chart c = detail::make(prefix + file_stem(name) + "_over_time", title_prefix + name,
                           "time since start (s)", name, ChartKind::kLines);
    for (const auto& [label, pts] : series) c.series.push_back({label, pts, {}, {}, {}});
    out->push_back(std::move(c));
  }
}

}  // namespace

std::vector<Chart> telemetry_charts(const RunData& run) {
  namespace fs = std::filesystem;
  std::vector<Chart> out;
  const fs::path gpu = fs::path(run.dir) / "gpu_telemetry_export.jsonl";
  if (fs::exists(gpu)) add_charts(gpu_series(gpu.string(), run.origin_ns), "gpu_", "GPU ", &out);
  const fs::path server = fs::path(run.dir) / "server_metrics_export.jsonl";
  if (fs::exists(server))
    add_charts(server_series(server.string(), run.origin_ns), "server_", "Server ", &out);
  return out;
}

}  // namespace servebench::plot
