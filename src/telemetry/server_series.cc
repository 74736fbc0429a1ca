#include "telemetry/server_series.h"

namespace servebench::telemetry {

int SeriesStore::add_endpoint(std::string url) {
  endpoints_.push_back(std::move(url));
  return static_cast<int>(endpoints_.size()) - 1;
}

void SeriesStore::add_scrape(int endpoint, int64_t t_ns, const std::vector<prom::Family>& families) {
  std::string key;
  for (const auto& f : families) {
    if (f.type == prom::MetricType::kSummary) {
      unsupported_.insert(f.name);
      continue;
    }
    families_.try_emplace(f.name, FamilyInfo{f.type, f.help, f.unit});
    for (const auto& s : f.samples) {
      key.assign(std::to_string(endpoint)).append("\x1e").append(s.name).append("\x1e");
      key.append(labels_text(s.labels));
      auto [it, fresh] = index_.try_emplace(key, series_.size());
      if (fresh) series_.push_back(Series{endpoint, f.name, f.type, s.name, s.labels, {}, {}});
      Series& out = series_[it->second];
      out.t_ns.push_back(t_ns);
      out.v.push_back(s.value);
    }
  }
}

std::string labels_text(const Labels& labels) {
  std::string out;
  for (const auto& [k, v] : labels) {
    if (!out.empty()) out += ',';
    out += k;
    out += "=\"";
    for (char c : v) {
      if (c == '"' || c == '\\') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    out += '"';
  }
  return out;
}

}  // namespace servebench::telemetry
