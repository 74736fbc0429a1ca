// AMD SMI collector: ROCm's libamd_smi.so, loaded with dlopen. The types are written here from
// AMD SMI's public C API reference (amdsmi.h, ROCm 6.4+): every call returns amdsmi_status_t
// (0 = AMDSMI_STATUS_SUCCESS); sockets and processors are opaque pointers. Field names follow
// AIPerf's amd_* map (aiperf-inventory.md §7.1). A metric whose call fails is left out.
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>

#include "gpu_telemetry/dl_library.h"
#include "gpu_telemetry/gpu_collector.h"

namespace servebench::gpu_telemetry {
namespace {

using AmdStatus = int;
using AmdHandle = void*;
constexpr AmdStatus kAmdSuccess = 0;
constexpr uint64_t kInitAmdGpus = 1u << 1;  // AMDSMI_INIT_AMD_GPUS
constexpr int kMemTypeVram = 0;             // AMDSMI_MEM_TYPE_VRAM
constexpr int kTempHotspot = 1;             // AMDSMI_TEMPERATURE_TYPE_HOTSPOT (= JUNCTION)
constexpr int kTempCurrent = 0;             // AMDSMI_TEMP_CURRENT
constexpr uint32_t kUnsupported32 = UINT32_MAX;

struct AmdPowerInfo {  // amdsmi_power_info_t (ROCm 6.4+)
  uint64_t socket_power;
  uint32_t current_socket_power;  // W
  uint32_t average_socket_power;  // W
  uint64_t gfx_voltage;
  uint64_t soc_voltage;
  uint64_t mem_voltage;
  uint32_t power_limit;
  uint64_t reserved[18];
};
struct AmdEngineUsage {  // amdsmi_engine_usage_t
  uint32_t gfx_activity;
  uint32_t umc_activity;
  uint32_t mm_activity;
  uint32_t reserved[13];
};
// amdsmi_asic_info_t starts with char market_name[AMDSMI_256_LENGTH] in every ROCm release; the
// rest changed between releases, so it is read into a buffer far larger than any of them.
struct AmdAsicInfoBuffer {
  char market_name[256];
  char rest[8192];
};

// amdsmi_error_count_t starts with correctable_count and uncorrectable_count (uint64_t) in every
// ROCm release; later releases appended deferred_count and reserved words, so it is read into a
// buffer larger than any of them.
struct AmdErrorCountBuffer {
  uint64_t correctable_count;
  uint64_t uncorrectable_count;
  uint64_t rest[30];
};

// amdsmi_gpu_metrics_t: the header and the first fields are the same in every ROCm release
// (4-byte header, six uint16 temperatures, four uint16 activities/power, two uint64 counters,
// fourteen uint16 clocks), so throttle_status sits at byte 68; later fields changed between
// releases, so the whole table is read into a buffer far larger than any of them.
struct AmdGpuMetricsBuffer {
  unsigned char bytes[64 * 1024];
};
constexpr size_t kThrottleStatusOffset = 68;
static_assert(kThrottleStatusOffset + sizeof(uint32_t) <= sizeof(AmdGpuMetricsBuffer));

struct AmdApi {
  AmdStatus (*init)(uint64_t) = nullptr;
  AmdStatus (*shut_down)() = nullptr;
  AmdStatus (*sockets)(uint32_t*, AmdHandle*) = nullptr;
  AmdStatus (*processors)(AmdHandle, uint32_t*, AmdHandle*) = nullptr;
  AmdStatus (*asic_info)(AmdHandle, void*) = nullptr;
  AmdStatus (*uuid)(AmdHandle, unsigned int*, char*) = nullptr;
  AmdStatus (*power)(AmdHandle, AmdPowerInfo*) = nullptr;
  AmdStatus (*energy)(AmdHandle, uint64_t*, float*, uint64_t*) = nullptr;
  AmdStatus (*activity)(AmdHandle, AmdEngineUsage*) = nullptr;
  AmdStatus (*memory_usage)(AmdHandle, int, uint64_t*) = nullptr;
  AmdStatus (*temperature)(AmdHandle, int, int, int64_t*) = nullptr;
  AmdStatus (*ecc_total)(AmdHandle, void*) = nullptr;
  AmdStatus (*gpu_metrics)(AmdHandle, void*) = nullptr;
};

class AmdSmiCollector final : public GpuCollector {
 public:
  explicit AmdSmiCollector(std::string library) : library_(std::move(library)) {}
  ~AmdSmiCollector() override {
    if (initialized_ && api_.shut_down != nullptr) api_.shut_down();
  }

  std::string source() const override { return "amdsmi://localhost"; }

  Status open() override {
    if (auto st = lib_.open(library_); !st)
      return make_error(ErrorCode::kNotFound,
                        fmt::format("AMD SMI not available ({}): no local AMD GPU telemetry",
                                    st.error().message));
    if (auto st = bind(); !st) return st;
    if (AmdStatus s = api_.init(kInitAmdGpus); s != kAmdSuccess)
      return make_error(ErrorCode::kUnsupported, fmt::format("amdsmi_init failed ({})", s));
    initialized_ = true;
    uint32_t n_sockets = 0;
    if (api_.sockets(&n_sockets, nullptr) != kAmdSuccess || n_sockets == 0)
      return make_error(ErrorCode::kUnsupported, "AMD SMI reports no socket");
    std::vector<AmdHandle> sockets(n_sockets);
    if (api_.sockets(&n_sockets, sockets.data()) != kAmdSuccess)
      return make_error(ErrorCode::kUnsupported, "amdsmi_get_socket_handles failed");
    for (uint32_t s = 0; s < n_sockets; ++s) add_processors(sockets[s]);
    if (devices_.empty()) return make_error(ErrorCode::kUnsupported, "AMD SMI reports no GPU");
    return {};
  }

  Result<std::vector<GpuReading>> collect() override {
    std::vector<GpuReading> out;
    for (const auto& dev : devices_) out.push_back(read(dev));
    return out;
  }

 private:
  struct Device {
    AmdHandle handle;
    GpuIdentity id;
  };

  Status bind() {
    api_.init = lib_.symbol<decltype(api_.init)>("amdsmi_init");
    api_.shut_down = lib_.symbol<decltype(api_.shut_down)>("amdsmi_shut_down");
    api_.sockets = lib_.symbol<decltype(api_.sockets)>("amdsmi_get_socket_handles");
    api_.processors = lib_.symbol<decltype(api_.processors)>("amdsmi_get_processor_handles");
    api_.asic_info = lib_.symbol<decltype(api_.asic_info)>("amdsmi_get_gpu_asic_info");
    api_.uuid = lib_.symbol<decltype(api_.uuid)>("amdsmi_get_gpu_device_uuid");
    api_.power = lib_.symbol<decltype(api_.power)>("amdsmi_get_power_info");
    api_.energy = lib_.symbol<decltype(api_.energy)>("amdsmi_get_energy_count");
    api_.activity = lib_.symbol<decltype(api_.activity)>("amdsmi_get_gpu_activity");
    api_.memory_usage = lib_.symbol<decltype(api_.memory_usage)>("amdsmi_get_gpu_memory_usage");
    api_.temperature = lib_.symbol<decltype(api_.temperature)>("amdsmi_get_temp_metric");
    api_.ecc_total = lib_.symbol<decltype(api_.ecc_total)>("amdsmi_get_gpu_total_ecc_count");
    api_.gpu_metrics = lib_.symbol<decltype(api_.gpu_metrics)>("amdsmi_get_gpu_metrics_info");
    if (api_.init == nullptr || api_.sockets == nullptr || api_.processors == nullptr)
      return make_error(ErrorCode::kUnsupported,
                        library_ + " lacks amdsmi_init/amdsmi_get_socket_handles: not AMD SMI");
    return {};
  }

  void add_processors(AmdHandle socket) {
    uint32_t n = 0;
    if (api_.processors(socket, &n, nullptr) != kAmdSuccess || n == 0) return;
    std::vector<AmdHandle> procs(n);
    if (api_.processors(socket, &n, procs.data()) != kAmdSuccess) return;
    for (uint32_t i = 0; i < n; ++i) {
      const int index = static_cast<int>(devices_.size());
      devices_.push_back({procs[i], identity(index, procs[i])});
    }
  }

  GpuIdentity identity(int index, AmdHandle h) const {
    GpuIdentity id;
    id.source = source();
    id.endpoint = "amdsmi";
    id.platform = "amd";
    id.index = index;
    auto asic = std::make_unique<AmdAsicInfoBuffer>();
    std::memset(asic.get(), 0, sizeof(AmdAsicInfoBuffer));
    if (api_.asic_info != nullptr && api_.asic_info(h, asic.get()) == kAmdSuccess) {
      asic->market_name[sizeof(asic->market_name) - 1] = 0;
      id.name = asic->market_name;
    }
    char uuid[128] = {};
    unsigned int len = sizeof(uuid) - 1;
    if (api_.uuid != nullptr && api_.uuid(h, &len, uuid) == kAmdSuccess) id.uuid = uuid;
    if (id.uuid.empty()) id.uuid = fmt::format("amdsmi-{}", index);
    id.hostname = "localhost";
    return id;
  }

  GpuReading read(const Device& dev) const {
    GpuReading r;
    r.gpu = dev.id;
    auto put = [&r](const char* tag, double v) { r.values.emplace_back(tag, v); };
    AmdHandle h = dev.handle;
    AmdPowerInfo p{};
    if (api_.power != nullptr && api_.power(h, &p) == kAmdSuccess) {
      uint32_t w = p.current_socket_power;
      if (w == 0 || w == kUnsupported32) w = p.average_socket_power;
      if (w != kUnsupported32) put("amd_power", w);
    }
    uint64_t acc = 0, ts = 0;
    float resolution_uj = 0;
    if (api_.energy != nullptr && api_.energy(h, &acc, &resolution_uj, &ts) == kAmdSuccess)
      put("amd_energy_consumption", static_cast<double>(acc) * resolution_uj * 1e-12);
    AmdEngineUsage u{};
    if (api_.activity != nullptr && api_.activity(h, &u) == kAmdSuccess) {
      if (u.gfx_activity != kUnsupported32) put("amd_gfx_activity", u.gfx_activity);
      if (u.umc_activity != kUnsupported32) put("amd_umc_activity", u.umc_activity);
      if (u.mm_activity != kUnsupported32) put("amd_mm_activity", u.mm_activity);
    }
    uint64_t used = 0;
    if (api_.memory_usage != nullptr && api_.memory_usage(h, kMemTypeVram, &used) == kAmdSuccess)
      put("amd_memory_used", static_cast<double>(used) / 1e9);
    int64_t t = 0;
    if (api_.temperature != nullptr &&
        api_.temperature(h, kTempHotspot, kTempCurrent, &t) == kAmdSuccess)
      put("amd_temperature", static_cast<double>(t));
    AmdErrorCountBuffer ecc{};
    if (api_.ecc_total != nullptr && api_.ecc_total(h, &ecc) == kAmdSuccess)
      put("amd_ecc_uncorrectable", static_cast<double>(ecc.uncorrectable_count));
    if (auto throttle = throttle_status(h)) put("amd_throttle_status", *throttle);
    return r;
  }

  // The throttle-status bit field of the GPU metrics table; UINT32_MAX means not supported.
  std::optional<double> throttle_status(AmdHandle h) const {
    if (api_.gpu_metrics == nullptr) return std::nullopt;
    auto table = std::make_unique<AmdGpuMetricsBuffer>();
    std::memset(table.get(), 0xff, sizeof(AmdGpuMetricsBuffer));
    if (api_.gpu_metrics(h, table.get()) != kAmdSuccess) return std::nullopt;
    uint32_t v = 0;
    std::memcpy(&v, table->bytes + kThrottleStatusOffset, sizeof(v));
    if (v == kUnsupported32) return std::nullopt;
    return static_cast<double>(v);
  }

  std::string library_;
  DlLibrary lib_;
  AmdApi api_;
  bool initialized_ = false;
  std::vector<Device> devices_;
};

}  // namespace

std::unique_ptr<GpuCollector> make_amdsmi_collector(std::string library) {
  return std::make_unique<AmdSmiCollector>(std::move(library));
}

}  // namespace servebench::gpu_telemetry
