// GpuSampler: the GPU telemetry thread. It opens its collectors (a DCGM endpoint that does not
// answer, or a missing NVML/AMD SMI library, is skipped with one info line), then collects from
// each every interval (AIPerf: 333 ms) until stop(), keeping every reading in a GpuSeriesSet and
// appending one gpu_telemetry_export.jsonl line per GPU reading as it goes (AIPerf's
// TelemetryRecord: gpu_index, gpu_uuid, gpu_model_name, pci_bus_id, device, hostname,
// timestamp_ns (wall), dcgm_url, telemetry_data {tag: value}). It never touches load workers;
// its only contact with the run is the start/stop calls from the run's phase hooks.
//
// Thread safety: start(), stop() and the accessors are called by one thread (the run's hook
// thread); the accessors only after stop().
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "gpu_telemetry/gpu_collector.h"
#include "gpu_telemetry/gpu_series.h"

namespace servebench::gpu_telemetry {

inline constexpr int64_t kDefaultGpuIntervalNs = 333'000'000;

// One line of gpu_telemetry_export.jsonl (no trailing newline).
std::string telemetry_jsonl_line(const GpuReading& reading, int64_t wall_ns);

class GpuSampler {
 public:
  GpuSampler(std::vector<std::unique_ptr<GpuCollector>> collectors, int64_t interval_ns,
             const core::Clock& clock, core::WallAnchor anchor);
  ~GpuSampler();
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;

  // Starts the thread; `jsonl_path` "" writes no file. Collection starts at once.
  void start(const std::string& jsonl_path);
  // Sources tried by default rather than asked for: their absence is logged at debug level.
  void set_quiet_sources(std::vector<std::string> sources) { quiet_ = std::move(sources); }
  // Collects once more (so the window's end has a sample), then stops and joins. Idempotent.
  void stop();

  const GpuSeriesSet& series() const { return series_; }
  // Sources that answered open(), and one line per source that did not.
  const std::vector<std::string>& reachable() const { return reachable_; }
  const std::vector<std::string>& configured() const { return configured_; }
  const std::vector<std::string>& notes() const { return notes_; }
  int64_t collections() const { return collections_; }
  int64_t failed_collections() const { return failed_; }
  std::string write_error() const { return write_error_; }

 private:
  void run(std::string jsonl_path);
  void collect_all(std::FILE* out);

  std::vector<std::unique_ptr<GpuCollector>> collectors_;
  std::vector<bool> open_;
  const int64_t interval_ns_;
  const core::Clock& clock_;
  const core::WallAnchor anchor_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_requested_ = false;
  GpuSeriesSet series_;
  std::vector<std::string> configured_;
  std::vector<std::string> reachable_;
  std::vector<std::string> notes_;
  std::vector<std::string> quiet_;
  std::vector<bool> failure_logged_;
  int64_t collections_ = 0;
  int64_t failed_ = 0;
  std::string write_error_;
};

}  // namespace servebench::gpu_telemetry
