// Runner: starts W worker threads, runs the plan's phases in order (all workers start a phase
// together at a barrier that fixes its start instant), and stops on completion, duration +
// grace, or interrupt(). Records are handed to `sink` in batches while the run goes on.
//
// Thread safety: run() blocks the calling thread; interrupt() may be called from any thread
// (e.g. a signal-watching thread) at any time.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "load/plan.h"
#include "load/worker.h"

namespace servebench::load {

struct PhaseOutcome {
  record::Phase phase = record::Phase::kProfiling;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  WorkerPhaseStats totals;
};

struct RunOutcome {
  std::vector<PhaseOutcome> phases;
  bool interrupted = false;
  int workers = 0;
  int64_t first_start_ns = 0;  // when the first phase started (t0)
  int64_t end_ns = 0;
};

class Runner {
 public:
  Runner(const Plan& plan, const WorkerSettings& settings, int workers, const core::Clock& clock,
         RecordSink sink);
  ~Runner();

  // Runs every phase. Fails only when a worker cannot be set up (event loop, HTTP client).
  Result<RunOutcome> run();
  // Called once per phase at its start instant, from the worker thread that completes the start
  // barrier while the others wait: it must only record and return (no blocking, no I/O); run
  // libraries hand the event to their own thread. Set before run().
  using PhaseObserver = std::function<void(record::Phase phase, int64_t start_ns)>;
  void set_phase_observer(PhaseObserver observer) { observer_ = std::move(observer); }
  // First call: stop issuing, drain briefly, cancel the rest. Second call: cancel at once.
  void interrupt();
  bool interrupted() const { return interrupted_.load(std::memory_order_relaxed); }
  // Requests issued so far over all phases and workers (relaxed loads of each worker's own
  // counter) while the workers run; 0 before they are set up and after they stopped. Any
  // thread, while the runner exists.
  int64_t issued() const;

 private:
  const Plan& plan_;
  const WorkerSettings& settings_;
  const int workers_;
  const core::Clock& clock_;
  RecordSink sink_;
  PhaseObserver observer_;
  std::vector<std::unique_ptr<Worker>> pool_;
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> ready_{false};  // workers initialized: interrupt() may reach them
  mutable std::mutex ready_mu_;  // guards pool_ reads from other threads (interrupt, issued)
};

// Raises RLIMIT_NOFILE's soft limit to the hard limit (thousands of connections). Returns the
// resulting soft limit.
uint64_t raise_fd_limit();

}  // namespace servebench::load
