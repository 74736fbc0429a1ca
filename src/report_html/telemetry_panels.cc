// Server-metrics and GPU panels, rendered generically from whatever JSON their writers produce:
// every object with numeric statistics becomes a table row; every JSONL sample with a timestamp
// becomes points of one series per device, one chart per numeric field.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "report_html/data_json.h"

namespace servebench::report_html::internal {
namespace {

constexpr size_t kMaxServerRows = 500;
constexpr size_t kMaxGpuFields = 24;
constexpr size_t kMaxGpuPoints = 2000;

bool read_text(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// Objects whose members include numbers (stats) and no nested object: one row each.
void collect_rows(const Json& j, const std::string& path, Json* rows) {
  if (rows->size() >= kMaxServerRows) return;
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) collect_rows(j[i], path + "[" + std::to_string(i) + "]", rows);
    return;
  }
  if (!j.is_object()) return;
  Json stats = Json::object(), labels = Json::object();
  bool nested = false;
  for (const auto& [k, v] : j.items()) {
    if (v.is_number()) stats[k] = rounded(v.get<double>(), 6);
    else if (v.is_string()) labels[k] = v;
    else if (v.is_object() || v.is_array()) nested = true;
  }
  if (!stats.empty()) rows->push_back({{"name", path}, {"labels", labels}, {"stats", stats}});
  if (!nested) return;
  for (const auto& [k, v] : j.items()) {
    if (v.is_object() || v.is_array()) collect_rows(v, path.empty() ? k : path + "." + k, rows);
  }
}

void flatten_numbers(const Json& j, const std::string& prefix, int depth,
                     std::map<std::string, double>* out) {
  for (const auto& [k, v] : j.items()) {
    const std::string name = prefix.empty() ? k : prefix + "." + k;
    if (v.is_number()) (*out)[name] = v.get<double>();
    else if (v.is_object() && depth < 3) flatten_numbers(v, name, depth + 1, out);
  }
}

bool is_identity_key(const std::string& k) {
  static const char* kKeys[] = {"gpu_index", "gpu_uuid", "gpu_id", "gpu", "uuid", "device",
                                "hostname", "gpu_name", "endpoint_url", "index"};
  return std::any_of(std::begin(kKeys), std::end(kKeys), [&](const char* x) { return k == x; });
}

// Seconds from origin of a timestamp field (ns, us, ms or s by magnitude).
double seconds_since(double ts, int64_t origin_ns) {
  double ns = ts > 1e17 ? ts : ts > 1e14 ? ts * 1e3 : ts > 1e11 ? ts * 1e6 : ts * 1e9;
  return (ns - static_cast<double>(origin_ns)) / 1e9;
}

struct GpuSeries {
  std::vector<double> t;
  std::map<std::string, std::vector<double>> fields;
};

}  // namespace

Json server_metrics_panel(const std::string& path) {
  std::string text;
  if (!read_text(path, &text)) return nullptr;
  const Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) return Json{{"error", "not valid JSON"}, {"rows", Json::array()}};
  Json rows = Json::array();
  collect_rows(doc, "", &rows);
  if (rows.empty()) return nullptr;
  return Json{{"rows", rows}, {"truncated", rows.size() >= kMaxServerRows}};
}

Json gpu_panel(const std::string& path, int64_t origin_ns) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::map<std::string, GpuSeries> series;
  std::map<std::string, int> field_seen;
  std::string line;
  while (std::getline(in, line)) {
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    std::map<std::string, double> nums;
    flatten_numbers(j, "", 0, &nums);
    std::string name;
    double ts = NAN;
    for (const auto& [k, v] : j.items()) {
      if (is_identity_key(k) && (v.is_string() || v.is_number_integer()))
        name += (name.empty() ? "" : " ") + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    for (auto it = nums.begin(); it != nums.end();) {
      const bool time_key = it->first.find("timestamp") != std::string::npos;
      if (time_key && std::isnan(ts)) ts = it->second;
      if (time_key || is_identity_key(it->first)) it = nums.erase(it);
      else ++it;
    }
    if (std::isnan(ts) || nums.empty()) continue;
    GpuSeries& s = series[name.empty() ? "gpu" : name];
    s.t.push_back(seconds_since(ts, origin_ns));
    for (const auto& [k, v] : nums) {
      auto& col = s.fields[k];
      col.resize(s.t.size() - 1, NAN);
      col.push_back(v);
      ++field_seen[k];
    }
  }
  if (series.empty()) return nullptr;
  Json fields = Json::array();
  for (const auto& [k, n] : field_seen) {
    if (fields.size() < kMaxGpuFields) fields.push_back(k);
  }
  Json out_series = Json::array();
  for (auto& [name, s] : series) {
    const size_t stride = (s.t.size() + kMaxGpuPoints - 1) / kMaxGpuPoints;
    std::vector<double> t;
    for (size_t i = 0; i < s.t.size(); i += stride) t.push_back(s.t[i]);
    Json values = Json::object();
    for (const auto& f : fields) {
      auto& col = s.fields[f.get<std::string>()];
      col.resize(s.t.size(), NAN);
      std::vector<double> v;
      for (size_t i = 0; i < col.size(); i += stride) v.push_back(col[i]);
      values[f.get<std::string>()] = rounded_array(v, 6);
    }
    out_series.push_back({{"name", name}, {"t_s", rounded_array(t, 6)}, {"values", values}});
  }
  return Json{{"fields", fields}, {"series", out_series}};
}

}  // namespace servebench::report_html::internal
