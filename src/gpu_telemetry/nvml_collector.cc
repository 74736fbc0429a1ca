// NVML collector: the NVIDIA driver's management library, loaded with dlopen. The few types
// used are written here from NVML's public API reference (nvml.h): every call returns an
// nvmlReturn_t (0 = NVML_SUCCESS), devices are opaque pointers, and the structs below have the
// documented layouts. A call that fails for one metric (NVML_ERROR_NOT_SUPPORTED on a given
// board) only leaves that metric out of the reading.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

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

struct NvmlProcessSample {  // nvmlProcessUtilizationSample_t
  unsigned int pid;
  unsigned long long time_stamp;  // µs
  unsigned int sm_util;
  unsigned int mem_util;
  unsigned int enc_util;
  unsigned int dec_util;
};
using NvmlEventSet = void*;
struct NvmlEventData {  // nvmlEventData_t
  NvmlDevice device;
  unsigned long long event_type;
  unsigned long long event_data;  // the XID for nvmlEventTypeXidCriticalError
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
constexpr unsigned long long kNvmlEventXid = 0x8;  // nvmlEventTypeXidCriticalError
constexpr NvmlReturn kNvmlNotFound = 6;            // NVML_ERROR_NOT_FOUND
constexpr NvmlReturn kNvmlInsufficientSize = 7;    // NVML_ERROR_INSUFFICIENT_SIZE

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
  NvmlReturn (*process_util)(NvmlDevice, NvmlProcessSample*, unsigned int*,
                             unsigned long long) = nullptr;
  NvmlReturn (*event_set_create)(NvmlEventSet*) = nullptr;
  NvmlReturn (*register_events)(NvmlDevice, unsigned long long, NvmlEventSet) = nullptr;
  NvmlReturn (*event_wait)(NvmlEventSet, NvmlEventData*, unsigned int) = nullptr;
  NvmlReturn (*event_set_free)(NvmlEventSet) = nullptr;
};

class NvmlCollector final : public GpuCollector {
 public:
  explicit NvmlCollector(std::string library) : library_(std::move(library)) {}
  ~NvmlCollector() override {
    if (events_ != nullptr && api_.event_set_free != nullptr) api_.event_set_free(events_);
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
    register_xid_events();
    return {};
  }

  Result<std::vector<GpuReading>> collect() override {
    drain_xid_events();
    std::vector<GpuReading> out;
    for (auto& dev : devices_) {
      out.push_back(read(dev));
      add_sm_utilization(&dev, &out.back());
      if (dev.xid_registered) out.back().values.emplace_back("nvidia_xid_errors", dev.last_xid);
    }
    return out;
  }

 private:
  struct Device {
    NvmlDevice handle;
    GpuIdentity id;
    unsigned long long last_seen_us = 0;  // process-utilisation samples read up to here
    bool xid_registered = false;
    double last_xid = 0;  // the last XID seen (DCGM_FI_DEV_XID_ERRORS' meaning), 0 = none
  };

  // XID errors arrive as NVML events: one set for every GPU that supports them, drained
  // without waiting before each reading.
  void register_xid_events() {
    if (api_.event_set_create == nullptr || api_.register_events == nullptr ||
        api_.event_wait == nullptr || api_.event_set_create(&events_) != kNvmlSuccess) {
      events_ = nullptr;
      return;
    }
    for (auto& dev : devices_)
      dev.xid_registered = api_.register_events(dev.handle, kNvmlEventXid, events_) == kNvmlSuccess;
  }

  void drain_xid_events() {
    if (events_ == nullptr) return;
    NvmlEventData e{};
    for (int i = 0; i < 1024 && api_.event_wait(events_, &e, 0) == kNvmlSuccess; ++i) {
      if ((e.event_type & kNvmlEventXid) == 0) continue;
      for (auto& dev : devices_)
        if (dev.handle == e.device) dev.last_xid = static_cast<double>(e.event_data);
    }
  }

  // SM activity: the newest sample of each process since the last reading, summed (capped at
  // 100 %); no process on the GPU reads 0.
  void add_sm_utilization(Device* dev, GpuReading* r) const {
    if (api_.process_util == nullptr) return;
    std::vector<NvmlProcessSample> buf(64);
    for (int attempt = 0; attempt < 4; ++attempt) {
      auto n = static_cast<unsigned int>(buf.size());
      const NvmlReturn rc = api_.process_util(dev->handle, buf.data(), &n, dev->last_seen_us);
      if (rc == kNvmlInsufficientSize) {
        buf.resize(std::max<size_t>(buf.size() * 4, n));
        continue;
      }
      if (rc == kNvmlNotFound) r->values.emplace_back("nvidia_sm_utilization", 0.0);
      if (rc != kNvmlSuccess) return;
      std::map<unsigned int, NvmlProcessSample> newest;
      for (unsigned int i = 0; i < n && i < buf.size(); ++i) {
        auto [it, fresh] = newest.emplace(buf[i].pid, buf[i]);
        if (!fresh && buf[i].time_stamp > it->second.time_stamp) it->second = buf[i];
        dev->last_seen_us = std::max(dev->last_seen_us, buf[i].time_stamp);
      }
      double sm = 0;
      for (const auto& [pid, sample] : newest) sm += std::min(sample.sm_util, 100u);
      r->values.emplace_back("nvidia_sm_utilization", std::min(sm, 100.0));
      return;
    }
  }

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
    api_.process_util =
        lib_.symbol<decltype(api_.process_util)>("nvmlDeviceGetProcessUtilization");
    api_.event_set_create = lib_.symbol<decltype(api_.event_set_create)>("nvmlEventSetCreate");
    api_.register_events =
        lib_.symbol<decltype(api_.register_events)>("nvmlDeviceRegisterEvents");
    api_.event_wait = lib_.symbol<decltype(api_.event_wait)>("nvmlEventSetWait_v2");
    api_.event_set_free = lib_.symbol<decltype(api_.event_set_free)>("nvmlEventSetFree");
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
  NvmlEventSet events_ = nullptr;
  bool initialized_ = false;
  std::vector<Device> devices_;
};

}  // namespace

std::unique_ptr<GpuCollector> make_nvml_collector(std::string library) {
  return std::make_unique<NvmlCollector>(std::move(library));
}

}  // namespace servebench::gpu_telemetry
