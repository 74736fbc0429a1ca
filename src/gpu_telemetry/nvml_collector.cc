// NVML collector: the NVIDIA driver's management library, loaded with dlopen. The few types
// used are written here from NVML's public API reference (nvml.h): every call returns an
// nvmlReturn_t (0 = NVML_SUCCESS), devices are opaque pointers, and the structs below have the
// documented layouts. A call that fails for one metric (NVML_ERROR_NOT_SUPPORTED on a given
// board) only leaves that metric out of the reading.
#include <fmt/format.h>

#include <cstdint>

#include "gpu_telemetry/dl_library.h"
#include "gpu_telemetry/gpu_collector.h"

namespace servebench::gpu_telemetry {
namespace {

using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU
constexpr int kNvmlPerfPolicyPower = 0;    // NVML_PERF_POLICY_POWER
constexpr int kNvmlPerfPolicyThermal = 1;  // NVML_PERF_POLICY_THERMAL
constexpr unsigned kNameLength = 96;       // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kUuidLength = 96;       // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct NvmlUtilization {  // nvmlUtilization_t
  unsigned int gpu;
  unsigned int memory;
};
struct NvmlMemory {  // nvmlMemory_t (v1)
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
struct NvmlViolationTime {  // nvmlViolationTime_t
  unsigned long long reference_time;
  unsigned long long violation_time;  // ns
};

struct NvmlApi {
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*count)(unsigned int*) = nullptr;
  NvmlReturn (*by_index)(unsigned int, NvmlDevice*) = nullptr;
  NvmlReturn (*name)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*uuid)(NvmlDevice, char*, unsigned int) = nullptr;
  NvmlReturn (*power_mw)(NvmlDevice, unsigned int*) = nullptr;
  NvmlReturn (*energy_mj)(NvmlDevice, unsigned long long*) = nullptr;
  NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
  NvmlReturn (*memory)(NvmlDevice, NvmlMemory*) = nullptr;
  NvmlReturn (*temperature)(NvmlDevice, int, unsigned int*) = nullptr;
  NvmlReturn (*encoder)(NvmlDevice, unsigned int*, unsigned int*) = nullptr;
  NvmlReturn (*decoder)(NvmlDevice, unsigned int*, unsigned int*) = nullptr;
  NvmlReturn (*jpg)(NvmlDevice, unsigned int*, unsigned int*) = nullptr;
  NvmlReturn (*violation)(NvmlDevice, int, NvmlViolationTime*) = nullptr;
};

class NvmlCollector final : public GpuCollector {
 public:
  explicit NvmlCollector(std::string library) : library_(std::move(library)) {}
  ~NvmlCollector() override {
    if (initialized_ && api_.shutdown != nullptr) api_.shutdown();
  }

  std::string source() const override { return "pynvml://localhost"; }

  Status open() override {
    if (auto st = lib_.open(library_); !st)
      return make_error(ErrorCode::kNotFound,
                        fmt::format("NVML not available ({}): no local NVIDIA GPU telemetry",
                                    st.error().message));
    if (auto st = bind(); !st) return st;
    if (NvmlReturn r = api_.init(); r != kNvmlSuccess)
      return make_error(ErrorCode::kUnsupported, "nvmlInit_v2 failed: " + why(r));
    initialized_ = true;
    unsigned int n = 0;
    if (NvmlReturn r = api_.count(&n); r != kNvmlSuccess)
      return make_error(ErrorCode::kUnsupported, "nvmlDeviceGetCount_v2 failed: " + why(r));
    for (unsigned int i = 0; i < n; ++i) {
      NvmlDevice d = nullptr;
      if (api_.by_index(i, &d) != kNvmlSuccess) continue;
      devices_.push_back({d, identity(i, d)});
    }
    if (devices_.empty()) return make_error(ErrorCode::kUnsupported, "NVML reports no GPU");
    return {};
  }

  Result<std::vector<GpuReading>> collect() override {
    std::vector<GpuReading> out;
    for (const auto& dev : devices_) out.push_back(read(dev));
    return out;
  }

 private:
  struct Device {
    NvmlDevice handle;
    GpuIdentity id;
  };

  std::string why(NvmlReturn r) const {
    const char* s = api_.error_string != nullptr ? api_.error_string(r) : nullptr;
    return s != nullptr ? fmt::format("{} ({})", s, r) : fmt::format("error {}", r);
  }

  Status bind() {
    api_.init = lib_.symbol<decltype(api_.init)>("nvmlInit_v2");
    api_.shutdown = lib_.symbol<decltype(api_.shutdown)>("nvmlShutdown");
    api_.error_string = lib_.symbol<decltype(api_.error_string)>("nvmlErrorString");
    api_.count = lib_.symbol<decltype(api_.count)>("nvmlDeviceGetCount_v2");
    api_.by_index = lib_.symbol<decltype(api_.by_index)>("nvmlDeviceGetHandleByIndex_v2");
    api_.name = lib_.symbol<decltype(api_.name)>("nvmlDeviceGetName");
    api_.uuid = lib_.symbol<decltype(api_.uuid)>("nvmlDeviceGetUUID");
    api_.power_mw = lib_.symbol<decltype(api_.power_mw)>("nvmlDeviceGetPowerUsage");
    api_.energy_mj =
        lib_.symbol<decltype(api_.energy_mj)>("nvmlDeviceGetTotalEnergyConsumption");
    api_.utilization = lib_.symbol<decltype(api_.utilization)>("nvmlDeviceGetUtilizationRates");
    api_.memory = lib_.symbol<decltype(api_.memory)>("nvmlDeviceGetMemoryInfo");
    api_.temperature = lib_.symbol<decltype(api_.temperature)>("nvmlDeviceGetTemperature");
    api_.encoder = lib_.symbol<decltype(api_.encoder)>("nvmlDeviceGetEncoderUtilization");
    api_.decoder = lib_.symbol<decltype(api_.decoder)>("nvmlDeviceGetDecoderUtilization");
    api_.jpg = lib_.symbol<decltype(api_.jpg)>("nvmlDeviceGetJpgUtilization");
    api_.violation = lib_.symbol<decltype(api_.violation)>("nvmlDeviceGetViolationStatus");
    if (api_.init == nullptr || api_.count == nullptr || api_.by_index == nullptr)
      return make_error(ErrorCode::kUnsupported,
                        library_ + " lacks nvmlInit_v2/nvmlDeviceGetCount_v2: not NVML");
    return {};
  }

  GpuIdentity identity(unsigned int index, NvmlDevice d) const {
    GpuIdentity id;
    id.source = source();
    id.endpoint = "pynvml";
    id.platform = "nvidia";
    id.index = static_cast<int>(index);
    char buf[kNameLength > kUuidLength ? kNameLength : kUuidLength] = {};
    if (api_.name != nullptr && api_.name(d, buf, kNameLength) == kNvmlSuccess) id.name = buf;
    buf[0] = 0;
    if (api_.uuid != nullptr && api_.uuid(d, buf, kUuidLength) == kNvmlSuccess) id.uuid = buf;
    if (id.uuid.empty()) id.uuid = fmt::format("nvml-{}", index);
    id.device = fmt::format("nvidia{}", index);
    id.hostname = "localhost";
    return id;
  }

  GpuReading read(const Device& dev) const {
    GpuReading r;
    r.gpu = dev.id;
    auto put = [&r](const char* tag, double v) { r.values.emplace_back(tag, v); };
    NvmlDevice d = dev.handle;
    unsigned int u = 0, period = 0;
    if (api_.power_mw != nullptr && api_.power_mw(d, &u) == kNvmlSuccess)
      put("nvidia_power_usage", u / 1000.0);
    unsigned long long mj = 0;
    if (api_.energy_mj != nullptr && api_.energy_mj(d, &mj) == kNvmlSuccess)
      put("nvidia_energy_consumption", static_cast<double>(mj) * 1e-9);
    NvmlUtilization util{};
    if (api_.utilization != nullptr && api_.utilization(d, &util) == kNvmlSuccess) {
      put("nvidia_gpu_utilization", util.gpu);
      put("nvidia_memory_utilization", util.memory);
    }
    NvmlMemory mem{};
    if (api_.memory != nullptr && api_.memory(d, &mem) == kNvmlSuccess)
      put("nvidia_memory_used", static_cast<double>(mem.used) / 1e9);
    if (api_.temperature != nullptr &&
        api_.temperature(d, kNvmlTemperatureGpu, &u) == kNvmlSuccess)
      put("nvidia_temperature", u);
    if (api_.encoder != nullptr && api_.encoder(d, &u, &period) == kNvmlSuccess)
      put("nvidia_encoder_utilization", u);
    if (api_.decoder != nullptr && api_.decoder(d, &u, &period) == kNvmlSuccess)
      put("nvidia_decoder_utilization", u);
    if (api_.jpg != nullptr && api_.jpg(d, &u, &period) == kNvmlSuccess)
      put("nvidia_jpg_utilization", u);
    NvmlViolationTime v{};
    if (api_.violation != nullptr &&
        api_.violation(d, kNvmlPerfPolicyPower, &v) == kNvmlSuccess)
      put("nvidia_power_violation", static_cast<double>(v.violation_time) / 1000.0);
    if (api_.violation != nullptr &&
        api_.violation(d, kNvmlPerfPolicyThermal, &v) == kNvmlSuccess)
      put("nvidia_thermal_violation", static_cast<double>(v.violation_time) / 1000.0);
    return r;
  }

  std::string library_;
  DlLibrary lib_;
  NvmlApi api_;
  bool initialized_ = false;
  std::vector<Device> devices_;
};

}  // namespace

std::unique_ptr<GpuCollector> make_nvml_collector(std::string library) {
  return std::make_unique<NvmlCollector>(std::move(library));
}

}  // namespace servebench::gpu_telemetry
