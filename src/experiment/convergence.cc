#include "experiment/convergence.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace servebench::experiment {

double ks_statistic(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double n = static_cast<double>(a.size());
  const double m = static_cast<double>(b.size());
  double d = 0;
  size_t i = 0, j = 0;
  // Walk the pooled values in order; after all copies of a value, compare the two CDFs.
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / n - static_cast<double>(j) / m));
  }
  return d;
}

double kolmogorov_survival(double lambda) {
  if (!(lambda > 0)) return 1.0;
  constexpr double kPi = 3.14159265358979323846;
  if (lambda < 1.18) {
    // The theta-function form converges fast for small lambda:
    // P(K <= l) = sqrt(2 pi) / l * sum_{k>=1} exp(-(2k-1)^2 pi^2 / (8 l^2)).
    double cdf = 0;
    for (int k = 1; k <= 20; ++k) {
      const double odd = 2.0 * k - 1.0;
      cdf += std::exp(-odd * odd * kPi * kPi / (8.0 * lambda * lambda));
    }
    cdf *= std::sqrt(2.0 * kPi) / lambda;
    return std::clamp(1.0 - cdf, 0.0, 1.0);
  }
  double q = 0;
  for (int k = 1; k <= 100; ++k) {
    const double term = 2.0 * std::exp(-2.0 * k * k * lambda * lambda);
    q += (k % 2 == 1) ? term : -term;
    if (term < 1e-16) break;
  }
  return std::clamp(q, 0.0, 1.0);
}

double ks_p_value(double d, size_t n, size_t m) {
  const double ne = static_cast<double>(n) * static_cast<double>(m) / static_cast<double>(n + m);
  const double root = std::sqrt(ne);
  return kolmogorov_survival((root + 0.12 + 0.11 / root) * d);
}

std::vector<double> read_record_values(const std::string& jsonl_path, const std::string& metric) {
  std::vector<double> out;
  std::ifstream in(jsonl_path, std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    if (line.find(metric) == std::string::npos) continue;  // cheap skip before parsing
    const auto r = nlohmann::json::parse(line, nullptr, false);
    if (!r.is_object()) continue;
    const auto md = r.find("metadata");
    if (md == r.end() || !md->is_object() || md->value("benchmark_phase", "") != "profiling")
      continue;
    if (const auto e = r.find("error"); e != r.end() && !e->is_null()) continue;
    const auto ms = r.find("metrics");
    if (ms == r.end() || !ms->is_object()) continue;
    const auto v = ms->find(metric);
    if (v == ms->end() || !v->is_object()) continue;
    const auto value = v->find("value");
    if (value != v->end() && value->is_number()) out.push_back(value->get<double>());
  }
  return out;
}

bool distribution_converged(const std::vector<Trial>& trials, const std::string& metric,
                            double p_threshold, const std::string& jsonl_name) {
  std::vector<const Trial*> ok;
  for (const auto& t : trials)
    if (t.ok && !t.artifact_dir.empty()) ok.push_back(&t);
  if (ok.size() < 3) return false;
  auto values_of = [&](const Trial* t) {
    return read_record_values((std::filesystem::path(t->artifact_dir) / jsonl_name).string(),
                              metric);
  };
  std::vector<double> earlier;
  for (size_t i = 0; i + 1 < ok.size(); ++i) {
    auto v = values_of(ok[i]);
    earlier.insert(earlier.end(), v.begin(), v.end());
  }
  const std::vector<double> latest = values_of(ok.back());
  if (earlier.size() < 2 || latest.size() < 2) return false;
  const double d = ks_statistic(earlier, latest);
  return ks_p_value(d, earlier.size(), latest.size()) > p_threshold;
}

}  // namespace servebench::experiment
