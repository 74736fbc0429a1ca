#include "gpu_telemetry/gpu_series.h"

#include <algorithm>
#include <cmath>

namespace servebench::gpu_telemetry {

void GpuSeriesSet::add(const GpuReading& reading, int64_t steady_ns) {
  const std::string key = reading.gpu.key();
  auto it = index_.find(key);
  if (it == index_.end()) {
    it = index_.emplace(key, gpus_.size()).first;
    gpus_.push_back(GpuSeries{reading.gpu, {}});
  }
  GpuSeries& g = gpus_[it->second];
  for (const auto& [tag, value] : reading.values) {
    if (!std::isfinite(value)) continue;
    MetricSeries& s = g.metrics[tag];
    s.steady_ns.push_back(steady_ns);
    s.values.push_back(value);
  }
}

std::optional<metrics::Stats> window_stats(const MetricSeries& s, int64_t start_ns,
                                           int64_t end_ns) {
  std::vector<double> in;
  for (size_t i = 0; i < s.values.size(); ++i)
    if (s.steady_ns[i] >= start_ns && s.steady_ns[i] <= end_ns) in.push_back(s.values[i]);
  if (in.empty()) return std::nullopt;
  metrics::Stats st = metrics::compute_stats(in);
  const auto n = static_cast<double>(st.count);
  st.std = st.count > 1 ? st.std * std::sqrt(n / (n - 1)) : 0.0;
  return st;
}

namespace {

// Index of the last sample at or before t; npos when none.
size_t last_at_or_before(const std::vector<int64_t>& ts, int64_t t) {
  auto it = std::upper_bound(ts.begin(), ts.end(), t);
  if (it == ts.begin()) return std::string::npos;
  return static_cast<size_t>(it - ts.begin()) - 1;
}

// [first, last] sample indices used for the window; false when fewer than two.
bool energy_range(const MetricSeries& s, int64_t start_ns, int64_t end_ns, size_t* first,
                  size_t* last) {
  if (s.values.size() < 2) return false;
  size_t a = last_at_or_before(s.steady_ns, start_ns);
  if (a == std::string::npos) a = 0;
  const size_t b = last_at_or_before(s.steady_ns, end_ns);
  if (b == std::string::npos || b <= a) return false;
  *first = a;
  *last = b;
  return true;
}

}  // namespace

std::optional<GpuEnergy> gpu_energy(const GpuSeries& gpu, const std::string& counter_tag,
                                    const std::string& power_tag, int64_t start_ns,
                                    int64_t end_ns, int64_t grace_ns) {
  GpuEnergy e;
  const auto power = gpu.metrics.find(power_tag);
  const int64_t until = end_ns + grace_ns;
  size_t a = 0, b = 0;
  const auto counter = gpu.metrics.find(counter_tag);
  if (counter != gpu.metrics.end() && energy_range(counter->second, start_ns, until, &a, &b)) {
    const auto& v = counter->second.values;
    double mj = 0;
    for (size_t i = a + 1; i <= b; ++i) mj += std::max(0.0, v[i] - v[i - 1]);
    e.joules = mj * 1e6;
    e.source = EnergySource::kCounter;
    e.span_ns = counter->second.steady_ns[b] - counter->second.steady_ns[a];
  } else if (power != gpu.metrics.end() && energy_range(power->second, start_ns, until, &a, &b)) {
    const auto& t = power->second.steady_ns;
    const auto& w = power->second.values;
    double j = 0;
    for (size_t i = a + 1; i <= b; ++i) j += 0.5 * (w[i] + w[i - 1]) * (t[i] - t[i - 1]) / 1e9;
    e.joules = j;
    e.source = EnergySource::kPowerIntegration;
    e.span_ns = t[b] - t[a];
  } else {
    return std::nullopt;
  }
  if (power != gpu.metrics.end()) {
    auto st = window_stats(power->second, start_ns, end_ns);
    if (!st) st = window_stats(power->second, end_ns - e.span_ns, until);
    if (st) e.avg_power_w = st->avg;
  }
  return e;
}

std::pair<std::string, std::string> energy_tags(const std::string& platform) {
  if (platform == "amd") return {"amd_energy_consumption", "amd_power"};
  return {"nvidia_energy_consumption", "nvidia_power_usage"};
}

}  // namespace servebench::gpu_telemetry
