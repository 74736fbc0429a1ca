// Fuzz target: the custom GPU metrics CSV parser never crashes, and what it accepts is usable:
// every field is a DCGM_FI_* name outside the default map, with a non-empty lower-case tag and
// header, and no two fields share a name.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>

#include "gpu_telemetry/gpu_metrics.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace servebench::gpu_telemetry;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto fields = parse_custom_metrics_csv(text, "fuzz.csv");
  if (!fields) {
    if (fields.error().message.empty()) std::abort();
    return 0;
  }
  std::set<std::string> seen;
  for (const auto& f : *fields) {
    if (f.field.rfind("DCGM_FI_", 0) != 0 || f.metric.header.empty() || f.metric.tag.empty())
      std::abort();
    if (!seen.insert(f.field).second) std::abort();
    for (const auto& d : default_dcgm_fields())
      if (d.field == f.field) std::abort();
    for (char c : f.metric.tag)
      if (c >= 'A' && c <= 'Z') std::abort();
  }
  return 0;
}
