// The GPU telemetry's place in the exports (AIPerf's layouts, aiperf-inventory.md §6.2, §6.3,
// §7.1): the `telemetry_data` object of profile_export_aiperf.json, the GPU table appended to
// profile_export_aiperf.csv, the console panel, and the energy metrics derived from the GPUs'
// energy over the profiling window together with the run's token and request counts.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu_telemetry/gpu_metrics.h"
#include "gpu_telemetry/gpu_series.h"

namespace servebench::gpu_telemetry {

struct ReportWindow {
  int64_t start_ns = 0;  // profiling start (steady)
  int64_t end_ns = 0;    // profiling end (steady)
  int64_t start_wall_ns = 0;
  int64_t end_wall_ns = 0;
};

struct ReportInput {
  const GpuSeriesSet* series = nullptr;
  std::vector<GpuMetricInfo> metrics;  // display order (built-in rows, then custom ones)
  std::vector<std::string> configured;  // every source tried
  std::vector<std::string> reachable;   // the sources that answered
  ReportWindow window;
};

// The JSON text of telemetry_data: {"summary": {endpoints_configured, endpoints_successful,
// start_time, end_time}, "endpoints": {"<host:port>": {"gpus": {"gpu_N": {gpu_index, gpu_name,
// gpu_uuid, platform, hostname, metrics: {tag: {avg, min, max, p1..p99, std, count, unit}}}}}}}.
std::string render_telemetry_json(const ReportInput& in);

// The CSV GPU table, starting with its header line
// "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,p1,...,p99,std".
std::string render_telemetry_csv(const ReportInput& in);

// The console panel: sources reachable, then one table per GPU (avg min max p99 p90 p50 std).
std::string render_telemetry_console(const ReportInput& in);

// What the run measured that energy metrics divide by (absent values skip their metrics).
struct RunTotals {
  std::optional<double> output_tokens;           // total_osl
  std::optional<double> input_tokens;            // total_isl
  std::optional<double> requests;                // request_count
  std::optional<double> output_token_throughput;  // tokens/s
  std::optional<double> request_throughput;       // requests/s
  std::optional<double> goodput;                   // requests/s (with --goodput)
  std::optional<double> concurrency;               // --concurrency
  std::optional<double> request_latency_ms;        // request_latency avg
};

struct DerivedMetric {
  std::string tag;  // vendor-prefixed: "nvidia_total_gpu_energy"
  std::string header;
  std::string unit;
  double value = 0;
};

// AIPerf's energy metrics (§5.4), one set per platform present, tags prefixed with the vendor
// ("nvidia_", "amd_"): total_gpu_energy (J), total_gpu_power (W, sum of each GPU's average),
// average_gpu_power (W, each GPU's energy / the time between the two samples it came
// from, summed), output_tokens_per_joule, energy_per_output_token and
// energy_per_total_token (mJ/token), energy_per_request (J), energy_per_user (J, energy /
// concurrency), output_tps_per_watt, performance_per_watt (requests/s/W), goodput_per_watt.
std::vector<DerivedMetric> energy_metrics(const GpuSeriesSet& series, const ReportWindow& w,
                                          const RunTotals& totals);

// Per-GPU energy lines for the console ("GPU 0 (pynvml): 123.4 J from the energy counter").
std::string render_energy_console(const GpuSeriesSet& series, const ReportWindow& w,
                                  const std::vector<DerivedMetric>& derived);

}  // namespace servebench::gpu_telemetry
