// What the sampler collected: per GPU, per metric, a time series of (steady ns, value); the
// statistics AIPerf reports per GPU metric over a window, and the energy a GPU used in a window.
//
// Energy (aiperf-inventory.md §5.4): from the energy counter when the GPU has one — the value
// at the last sample at or before window end + grace minus the value at the last sample at or
// before the window start (the first sample in the window when none precedes it); a counter
// that goes down (driver reset) adds its increases only. Without a counter, power integrated
// over the samples in the same range (trapezoids).
//
// Thread safety: a value type; the sampler fills it on its thread and hands it over when it
// stops.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpu_telemetry/gpu_collector.h"
#include "metrics/stats.h"

namespace servebench::gpu_telemetry {

// AIPerf's grace after the profiling window for the energy counter (666 ms).
inline constexpr int64_t kEnergyGraceNs = 666'000'000;

struct MetricSeries {
  std::vector<int64_t> steady_ns;
  std::vector<double> values;
};

struct GpuSeries {
  GpuIdentity gpu;
  std::map<std::string, MetricSeries> metrics;  // by tag
};

// The telemetry of one run, GPUs in first-seen order.
class GpuSeriesSet {
 public:
  void add(const GpuReading& reading, int64_t steady_ns);
  const std::vector<GpuSeries>& gpus() const { return gpus_; }
  bool empty() const { return gpus_.empty(); }

 private:
  std::vector<GpuSeries> gpus_;
  std::map<std::string, size_t> index_;  // GpuIdentity::key() → position
};

// AIPerf's telemetry statistics of the samples with start_ns <= t <= end_ns: avg, min, max,
// p1..p99 (linear), sample std (ddof = 1; 0 for one sample), count. nullopt when none.
std::optional<metrics::Stats> window_stats(const MetricSeries& s, int64_t start_ns,
                                           int64_t end_ns);

enum class EnergySource { kCounter, kPowerIntegration };

struct GpuEnergy {
  double joules = 0;
  // Mean of the power samples in the window; when none falls inside it (a window shorter than
  // the sampling interval), of those between the two samples the energy came from.
  double avg_power_w = 0;
  int64_t span_ns = 0;  // between the two samples the energy came from
  EnergySource source = EnergySource::kCounter;
};

// Energy of one GPU over [start_ns, end_ns + grace_ns] (see the file comment). `counter_tag`
// in MJ, `power_tag` in W. nullopt when neither series has two usable samples.
std::optional<GpuEnergy> gpu_energy(const GpuSeries& gpu, const std::string& counter_tag,
                                    const std::string& power_tag, int64_t start_ns,
                                    int64_t end_ns, int64_t grace_ns = kEnergyGraceNs);

// The counter and power tags of a platform ("nvidia" or "amd").
std::pair<std::string, std::string> energy_tags(const std::string& platform);

}  // namespace servebench::gpu_telemetry
