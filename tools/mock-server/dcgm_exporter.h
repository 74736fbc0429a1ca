// DCGM-exporter mode of servebench-mock (--dcgm-port): a second listener that answers
// GET /metrics with DCGM exporter's Prometheus text for N fake GPUs (DCGM_FI_DEV_POWER_USAGE,
// DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_MEM_COPY_UTIL,
// DCGM_FI_DEV_FB_USED, DCGM_FI_DEV_FB_FREE, DCGM_FI_DEV_GPU_TEMP, DCGM_FI_PROF_SM_ACTIVE,
// DCGM_FI_DEV_ENC_UTIL, DCGM_FI_DEV_DEC_UTIL, DCGM_FI_DEV_XID_ERRORS,
// DCGM_FI_DEV_POWER_VIOLATION, DCGM_FI_DEV_THERMAL_VIOLATION), each sample labelled as the
// exporter does (gpu, UUID, pci_bus_id, device, modelName, Hostname).
//
// The GPUs follow the mock's load: utilisation = min(100, 100 × running / saturation) (GPU i
// at (1 − 0.1 i) of it), power = idle + (max − idle) × utilisation / 100, and the energy
// counter (mJ) integrates the reported power: at each scrape it grows by the power reported
// in that scrape × the time since the previous scrape. So a client that differences the
// counter between two scrapes gets exactly Σ power × Δt of the scrapes in between.
//
// Thread safety: one thread serves the listener; render() is called only by it. stop() from
// any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace servebench::mock {

struct DcgmConfig {
  std::string host = "127.0.0.1";
  int port = -1;  // -1: off; 0: ephemeral
  int gpus = 2;
  std::string gpu_name = "NVIDIA H100 80GB HBM3";
  std::string hostname = "servebench-mock";
  double idle_w = 70;
  double max_w = 700;
  int saturation = 32;  // running requests at which utilisation reaches 100 %
};

// The simulated GPUs; pure apart from the clock value handed in (unit-testable).
class DcgmGpus {
 public:
  explicit DcgmGpus(const DcgmConfig& config) : config_(config), energy_mj_(config.gpus, 0.0) {}
  // The exposition at steady time `now_ns` with `running` requests in flight.
  std::string render(int64_t now_ns, int64_t running);

 private:
  DcgmConfig config_;
  std::vector<double> energy_mj_;
  int64_t last_ns_ = 0;
};

class DcgmExporter {
 public:
  // Binds and listens (port known on return), then serves on its own thread.
  static Result<std::unique_ptr<DcgmExporter>> start(const DcgmConfig& config,
                                                     std::function<int64_t()> running);
  ~DcgmExporter();
  uint16_t port() const { return port_; }
  void stop();

 private:
  DcgmExporter(const DcgmConfig& config, std::function<int64_t()> running, int fd,
               uint16_t port);
  void serve();
  void answer(int client);

  DcgmGpus gpus_;
  std::function<int64_t()> running_;
  int fd_;
  uint16_t port_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace servebench::mock
