// Pause points: record processing hands its core back to a waiting worker at short intervals.
//
// A processor thread (record_processor.h) runs at nice 10 beside the workers. When the two share
// a core, the scheduler lets a running processor thread finish its time slice (milliseconds)
// before a worker woken by the network gets the core back, and the requests that worker would
// have sent meanwhile wait. Measured at concurrency 64 against an instant server with the whole
// process on one core, the processor then held 11-17 % of the core during the load
// (docs/performance.md). So record processing calls pause_point() once per record, and every
// kPauseIntervalNs of processing the thread yields its core: at once if a worker (or anything
// else) is waiting for it, a no-op costing one system call if nothing is. sched_yield keeps the
// thread runnable, so it keeps its nice-10 share of a busy core: it is never starved.
//
// Thread safety: a PausePacer belongs to one thread; pause_point() reads the calling thread's.
#pragma once

#include <cstdint>

namespace servebench::record {

// Calls `yield` once `interval_ns` of `clock` has passed since the last yield (or since
// construction) when ticked.
class PausePacer {
 public:
  using ClockFn = int64_t (*)();
  using YieldFn = void (*)();
  PausePacer(int64_t interval_ns, ClockFn clock, YieldFn yield);

  void tick();
  uint64_t yields() const { return yields_; }

 private:
  int64_t interval_ns_;
  ClockFn clock_;
  YieldFn yield_;
  int64_t last_ns_;
  uint64_t yields_ = 0;
};

// How much processing runs between two yields: long enough that the system call is noise next to
// the records processed in between (~3 µs each for a short streamed answer), short enough that a
// waiting worker is delayed by less than a network round trip on loopback.
inline constexpr int64_t kPauseIntervalNs = 50'000;

// The steady clock and sched_yield: what processor threads use.
int64_t pause_clock_ns();
void pause_yield();

// Installs `pacer` as the calling thread's for the scope's lifetime (the previous one after).
class ScopedPausePacer {
 public:
  explicit ScopedPausePacer(PausePacer* pacer);
  ~ScopedPausePacer();
  ScopedPausePacer(const ScopedPausePacer&) = delete;
  ScopedPausePacer& operator=(const ScopedPausePacer&) = delete;

 private:
  PausePacer* previous_;
};

// Ticks the calling thread's pacer; nothing on a thread without one (the main thread of
// `servebench report`, tests).
void pause_point();
// The calling thread's pacer, or null.
const PausePacer* current_pause_pacer();

}  // namespace servebench::record
