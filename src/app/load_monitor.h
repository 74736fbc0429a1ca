// LoadMonitor: the run library's thread beside a running load. It calls the load_started and
// load_ended hooks (so no hook ever runs on a worker thread) and forwards process interrupts
// (signal_watcher.h's interrupt_level) to the runner: the first stops issuing and drains, the
// second cancels at once.
//
// Thread safety: on_phase_start from the runner's phase observer (a worker thread; it only
// records and wakes the monitor); the rest from the thread that owns the monitor.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

#include "app/run.h"
#include "core/clock.h"
#include "load/runner.h"

namespace servebench::app {

class LoadMonitor {
 public:
  // `info` carries the artifact folder and anchor for the hooks; `duration_ns`: the profiling
  // phase's --benchmark-duration (load_ended fires at its end), nullopt when none.
  LoadMonitor(load::Runner* runner, const RunHooks& hooks, PhaseInfo info,
              std::optional<int64_t> duration_ns, const core::Clock& clock);
  ~LoadMonitor();
  LoadMonitor(const LoadMonitor&) = delete;
  LoadMonitor& operator=(const LoadMonitor&) = delete;

  void on_phase_start(record::Phase phase, int64_t start_ns);
  // After the runner returned: stops the thread, then calls the hooks not called yet
  // (load_started, load_ended) on the calling thread. Returns the info as of load_ended.
  PhaseInfo finish(int64_t end_ns, bool interrupted);

 private:
  void loop();
  void forward_interrupts();

  load::Runner* runner_;
  const RunHooks& hooks_;
  const std::optional<int64_t> duration_ns_;
  const core::Clock& clock_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;               // guarded by mu_
  int64_t profiling_start_ns_ = 0;  // guarded by mu_; 0 until the profiling phase starts
  // Monitor thread only (until joined).
  PhaseInfo info_;
  bool started_called_ = false;
  bool ended_called_ = false;
  int forwarded_ = 0;
  std::thread thread_;
};

}  // namespace servebench::app
