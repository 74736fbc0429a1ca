#include "experiment/pooled.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/units.h"

namespace servebench::experiment {

std::optional<PercentileKey> percentile_key(const std::string& key) {
  const size_t us = key.rfind("_p");
  if (us == std::string::npos || us == 0) return std::nullopt;
  auto n = core::parse_double(key.substr(us + 2));
  if (!n || !(*n > 0) || !(*n < 100)) return std::nullopt;
  return PercentileKey{key.substr(0, us), *n / 100};
}

Result<std::optional<double>> pooled_percentile(const std::vector<std::string>& jsonl_paths,
                                                const std::string& tag, double q) {
  std::vector<double> values;
  for (const auto& path : jsonl_paths) {
    std::ifstream in(path);
    if (!in)
      return make_error(ErrorCode::kNotFound,
                        path + ": cannot be read; pooled percentiles need --export-level records");
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("metrics") || !j["metrics"].contains(tag)) continue;
      const auto& m = j["metrics"][tag];
      if (m.is_object() && m.contains("value") && m["value"].is_number())
        values.push_back(m["value"].get<double>());
    }
  }
  if (values.empty()) return std::optional<double>();
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return std::optional<double>(values[lo] +
                               (pos - static_cast<double>(lo)) * (values[hi] - values[lo]));
}

}  // namespace servebench::experiment
