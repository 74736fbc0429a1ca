// The GPU metrics servebench reports (AIPerf's field map, aiperf-inventory.md §7.1): one row per
// metric with its tag (the key in gpu_telemetry_export.jsonl and the JSON export), console
// header and unit, whether it is a cumulative counter; plus the DCGM-exporter field map
// (DCGM_FI_* → tag and the factor to AIPerf's unit) and the custom-metrics CSV that extends it.
//
// Units are AIPerf's: power W, energy MJ (counter), utilisation %, memory GB, temperature °C,
// violation µs (counter).
//
// Thread safety: the tables are immutable; the functions are pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::gpu_telemetry {

struct GpuMetricInfo {
  std::string tag;     // "nvidia_power_usage"
  std::string header;  // "NVIDIA GPU Power Usage"
  std::string unit;    // "W"
  bool counter = false;
};

// The built-in rows, NVIDIA (DCGM and NVML) then AMD, in display order.
const std::vector<GpuMetricInfo>& builtin_gpu_metrics();

// One DCGM exporter field and where it lands.
struct DcgmField {
  std::string field;  // "DCGM_FI_DEV_POWER_USAGE"
  GpuMetricInfo metric;
  double scale = 1;   // exporter value × scale = value in metric.unit
};

// The default field map (AIPerf's), in display order.
const std::vector<DcgmField>& default_dcgm_fields();

// Parses a DCGM-exporter style metrics CSV ("DCGM_FI_DEV_SM_CLOCK, gauge, SM clock frequency
// (in MHz)"; '#' starts a comment line) into extra fields: tag = the field name without its
// DCGM_FI_DEV_/DCGM_FI_PROF_/DCGM_FI_ prefix, lower case ("sm_clock"); header = the help text
// without its "(in X)" part; unit = X ("" when absent); counter when the type is "counter".
// Fields already in the default map are skipped (custom metrics extend the defaults).
// Errors name the file and line.
Result<std::vector<DcgmField>> parse_custom_metrics_csv(std::string_view text,
                                                        const std::string& file_name);

// Reads and parses the file (errors name it and say what to fix).
Result<std::vector<DcgmField>> load_custom_metrics_csv(const std::string& path);

}  // namespace servebench::gpu_telemetry
