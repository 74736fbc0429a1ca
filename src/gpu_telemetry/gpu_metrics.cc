#include "gpu_telemetry/gpu_metrics.h"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace servebench::gpu_telemetry {
namespace {

constexpr double kMilliJouleToMegaJoule = 1e-9;
constexpr double kMibToGb = 1048576.0 / 1e9;

GpuMetricInfo m(const char* tag, const char* header, const char* unit, bool counter = false) {
  return GpuMetricInfo{tag, header, unit, counter};
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split_csv_line(std::string_view line) {
  // The help text may contain commas: only the first two separate fields.
  std::vector<std::string> out;
  size_t start = 0;
  for (int i = 0; i < 2; ++i) {
    const size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) break;
    out.push_back(trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
  out.push_back(trim(line.substr(start)));
  return out;
}

std::string tag_of_field(std::string_view field) {
  for (std::string_view prefix : {"DCGM_FI_DEV_", "DCGM_FI_PROF_", "DCGM_FI_"}) {
    if (field.substr(0, prefix.size()) == prefix) {
      field.remove_prefix(prefix.size());
      break;
    }
  }
  std::string tag(field);
  for (char& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return tag;
}

// "SM clock frequency (in MHz)" → header "SM clock frequency", unit "MHz".
void split_help(const std::string& help, std::string* header, std::string* unit) {
  const size_t open = help.rfind("(in ");
  const size_t close = help.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    *header = help;
    unit->clear();
    return;
  }
  *unit = trim(std::string_view(help).substr(open + 4, close - open - 4));
  *header = trim(std::string_view(help).substr(0, open));
}

}  // namespace

const std::vector<GpuMetricInfo>& builtin_gpu_metrics() {
  static const std::vector<GpuMetricInfo> rows = [] {
    std::vector<GpuMetricInfo> r;
    for (const auto& f : default_dcgm_fields()) r.push_back(f.metric);
    // NVML only (no DCGM exporter field in the default map).
    r.push_back(m("nvidia_jpg_utilization", "NVIDIA JPG Utilization", "%"));
    r.push_back(m("amd_power", "AMD GPU Power", "W"));
    r.push_back(m("amd_energy_consumption", "AMD Energy Consumption", "MJ", true));
    r.push_back(m("amd_gfx_activity", "AMD GFX Activity", "%"));
    r.push_back(m("amd_umc_activity", "AMD UMC Activity", "%"));
    r.push_back(m("amd_mm_activity", "AMD MM Activity", "%"));
    r.push_back(m("amd_memory_used", "AMD GPU Memory Used", "GB"));
    r.push_back(m("amd_temperature", "AMD GPU Temperature", "°C"));
    r.push_back(m("amd_ecc_uncorrectable", "AMD ECC Uncorrectable", "count", true));
    r.push_back(m("amd_throttle_status", "AMD Throttle Status", "bitmask"));
    return r;
  }();
  return rows;
}

const std::vector<DcgmField>& default_dcgm_fields() {
  static const std::vector<DcgmField> fields = {
      {"DCGM_FI_DEV_POWER_USAGE", m("nvidia_power_usage", "NVIDIA GPU Power Usage", "W"), 1},
      {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
       m("nvidia_energy_consumption", "NVIDIA Energy Consumption", "MJ", true),
       kMilliJouleToMegaJoule},
      {"DCGM_FI_DEV_GPU_UTIL", m("nvidia_gpu_utilization", "NVIDIA GPU Utilization", "%"), 1},
      {"DCGM_FI_DEV_MEM_COPY_UTIL",
       m("nvidia_memory_utilization", "NVIDIA Memory Utilization", "%"), 1},
      {"DCGM_FI_DEV_FB_USED", m("nvidia_memory_used", "NVIDIA GPU Memory Used", "GB"), kMibToGb},
      {"DCGM_FI_DEV_GPU_TEMP", m("nvidia_temperature", "NVIDIA GPU Temperature", "°C"), 1},
      {"DCGM_FI_PROF_SM_ACTIVE", m("nvidia_sm_utilization", "NVIDIA SM Utilization", "%"), 100},
      {"DCGM_FI_DEV_ENC_UTIL", m("nvidia_encoder_utilization", "NVIDIA Encoder Utilization", "%"),
       1},
      {"DCGM_FI_DEV_DEC_UTIL", m("nvidia_decoder_utilization", "NVIDIA Decoder Utilization", "%"),
       1},
      {"DCGM_FI_DEV_XID_ERRORS", m("nvidia_xid_errors", "NVIDIA XID Errors", "count"), 1},
      {"DCGM_FI_DEV_POWER_VIOLATION",
       m("nvidia_power_violation", "NVIDIA Power Violation", "µs", true), 1},
      {"DCGM_FI_DEV_THERMAL_VIOLATION",
       m("nvidia_thermal_violation", "NVIDIA Thermal Violation", "µs", true), 1},
  };
  return fields;
}

Result<std::vector<DcgmField>> parse_custom_metrics_csv(std::string_view text,
                                                        const std::string& file_name) {
  std::vector<DcgmField> out;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const auto cols = split_csv_line(line);
    if (cols.size() < 3 || cols[0].rfind("DCGM_FI_", 0) != 0 ||
        (cols[1] != "gauge" && cols[1] != "counter")) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--gpu-telemetry {}: line {} is not \"DCGM_FI_<FIELD>, "
                                    "gauge|counter, help text\"; fix or comment it out with #",
                                    file_name, line_no));
    }
    bool known = false;
    for (const auto& f : default_dcgm_fields()) known |= f.field == cols[0];
    for (const auto& f : out) known |= f.field == cols[0];
    if (known) continue;
    DcgmField f;
    f.field = cols[0];
    f.metric.tag = tag_of_field(cols[0]);
    if (f.metric.tag.empty() || f.field.find_first_of(" \t\"{}") != std::string::npos) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--gpu-telemetry {}: line {}: '{}' is not a DCGM field name "
                                    "(DCGM_FI_DEV_<NAME>)",
                                    file_name, line_no, cols[0]));
    }
    split_help(cols[2], &f.metric.header, &f.metric.unit);
    if (f.metric.header.empty()) f.metric.header = f.metric.tag;
    f.metric.counter = cols[1] == "counter";
    out.push_back(std::move(f));
  }
  return out;
}

Result<std::vector<DcgmField>> load_custom_metrics_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return make_error(ErrorCode::kNotFound,
                      fmt::format("--gpu-telemetry {}: cannot read the custom metrics file; "
                                  "check the path",
                                  path));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_custom_metrics_csv(ss.str(), path);
}

}  // namespace servebench::gpu_telemetry
