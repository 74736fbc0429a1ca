// A source of GPU readings: a DCGM exporter endpoint (HTTP scrape), the local NVIDIA driver
// (NVML, loaded with dlopen) or the local AMD driver (AMD SMI, loaded with dlopen). The sampler
// (gpu_sampler.h) calls open() once and then collect() every interval, on its own thread.
//
// Thread safety: one thread uses a collector at a time.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace servebench::gpu_telemetry {

// Who a reading is about. `source` names the collector's endpoint as AIPerf writes it in
// dcgm_url ("http://node1:9401/metrics", "pynvml://localhost", "amdsmi://localhost").
struct GpuIdentity {
  std::string source;
  std::string endpoint;  // the JSON/CSV grouping key: "node1:9401", "pynvml", "amdsmi"
  std::string platform;  // "nvidia" or "amd"
  int index = 0;
  std::string uuid;
  std::string name;
  std::string pci_bus_id;  // "" when unknown
  std::string device;      // "nvidia0"; "" when unknown
  std::string hostname;    // "" when unknown

  std::string key() const { return source + "|" + uuid + "|" + std::to_string(index); }
};

// One GPU's values at one collection: (metric tag, value in the metric's unit).
struct GpuReading {
  GpuIdentity gpu;
  std::vector<std::pair<std::string, double>> values;
};

class GpuCollector {
 public:
  virtual ~GpuCollector() = default;
  // The source as written in dcgm_url.
  virtual std::string source() const = 0;
  // Loads the library / checks the endpoint. An error means "skip this collector"; its message
  // is one line saying why (the caller logs it once).
  virtual Status open() = 0;
  // One reading per GPU. An error is a failed collection (counted, logged once), not fatal.
  virtual Result<std::vector<GpuReading>> collect() = 0;
};

// NVML from `library` (default "libnvidia-ml.so.1", found through the loader's search path,
// LD_LIBRARY_PATH included). Source "pynvml://localhost", endpoint "pynvml" (AIPerf's names).
std::unique_ptr<GpuCollector> make_nvml_collector(std::string library = "libnvidia-ml.so.1");

// AMD SMI from `library` (default "libamd_smi.so"). Source "amdsmi://localhost".
std::unique_ptr<GpuCollector> make_amdsmi_collector(std::string library = "libamd_smi.so");

}  // namespace servebench::gpu_telemetry
