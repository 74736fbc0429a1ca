// TelemetrySession: the GPU telemetry and network RTT collectors of one run. The run library
// calls its four phase methods from its hooks (app/telemetry_hooks.h) and asks it for the
// export sections once the profiling summary exists; the sampler and the prober run on their
// own threads and never touch load workers.
//
// Thread safety: the phase methods and sections() are called by the run's threads one at a
// time, in phase order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "export/artifacts.h"
#include "gpu_telemetry/gpu_metrics.h"
#include "gpu_telemetry/gpu_report.h"
#include "gpu_telemetry/gpu_sampler.h"
#include "gpu_telemetry/network_rtt.h"

namespace servebench::gpu_telemetry {

inline constexpr const char* kGpuTelemetryJsonl = "gpu_telemetry_export.jsonl";
inline constexpr const char* kNetworkLatencyJsonl = "profile_export_network_latency.jsonl";

struct TelemetryOptions {
  bool gpu = true;             // false: --no-gpu-telemetry
  bool gpu_console = false;    // --gpu-telemetry given: the GPU panel on the console
  std::vector<std::string> values;  // --gpu-telemetry values
  int64_t gpu_interval_ns = kDefaultGpuIntervalNs;
  // Libraries (tests point these at fakes; the loader's search path applies to bare names).
  std::string nvml_library = "libnvidia-ml.so.1";
  std::string amdsmi_library = "libamd_smi.so";
  std::vector<std::string> default_dcgm_urls = {"http://localhost:9400/metrics",
                                                "http://localhost:9401/metrics"};
  bool rtt_probe = false;                 // --network-latency-automatic
  std::optional<double> rtt_fixed_ms;     // --network-latency-mean
  int64_t rtt_interval_ns = kDefaultRttIntervalNs;
  std::vector<std::string> urls;          // the benchmark's base URLs (RTT targets)
  std::optional<double> concurrency;      // for energy_per_user
};

// What --gpu-telemetry's values select.
struct GpuSelection {
  bool nvml = false;
  bool amdsmi = false;
  std::vector<std::string> dcgm_urls;  // defaults first (when DCGM is used), then given ones
  std::vector<DcgmField> custom_fields;
};

// pynvml / amdsmi replace DCGM (AIPerf); URLs without a scheme get http://, URLs without a
// path get /metrics; *.csv files are read (errors name the file, exit 2).
Result<GpuSelection> select_gpu_sources(const TelemetryOptions& options);

// AIPerf's reachability timeout for a DCGM endpoint the user named; the two defaults, tried on
// every run, get a short one so a silent listener there cannot hold a run's end for long.
inline constexpr int64_t kDcgmReachabilityTimeoutNs = 10'000'000'000;
inline constexpr int64_t kDefaultDcgmReachabilityTimeoutNs = 2'000'000'000;

// Makes the DCGM collector for `url` (dcgm_collector.cc); open() waits up to
// `reachability_timeout_ns` for the first answer.
std::unique_ptr<GpuCollector> make_dcgm_collector(
    std::string url, std::vector<DcgmField> fields,
    int64_t reachability_timeout_ns = kDcgmReachabilityTimeoutNs);

class TelemetrySession {
 public:
  // Errors: a bad custom metrics file (usage error).
  static Result<std::unique_ptr<TelemetrySession>> create(TelemetryOptions options,
                                                          const core::Clock& clock);
  ~TelemetrySession();

  void before_load(const std::string& artifact_dir, core::WallAnchor anchor);
  void load_started(int64_t at_ns);
  void load_ended(int64_t at_ns);
  void after_grace();

  // The JSON keys (telemetry_data, energy and network metrics), CSV table, console panels and
  // network-latency file for the exports.
  exporter::ExtraSections sections(const metrics::Summary& profiling) const;

  bool active() const { return sampler_ != nullptr || prober_ != nullptr; }

 private:
  TelemetrySession(TelemetryOptions options, GpuSelection selection, const core::Clock& clock);
  ReportWindow window() const;
  void add_gpu_sections(const metrics::Summary& s, exporter::ExtraSections* out) const;
  void add_rtt_sections(const metrics::Summary& s, exporter::ExtraSections* out) const;

  TelemetryOptions options_;
  GpuSelection selection_;
  const core::Clock& clock_;
  core::WallAnchor anchor_;
  std::unique_ptr<GpuSampler> sampler_;
  std::unique_ptr<RttProber> prober_;
  int64_t load_start_ns_ = 0;
  int64_t load_end_ns_ = 0;
};

}  // namespace servebench::gpu_telemetry
