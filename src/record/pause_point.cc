#include "record/pause_point.h"

#include <sched.h>

#include <chrono>

namespace servebench::record {
namespace {

thread_local PausePacer* t_pacer = nullptr;

}  // namespace

PausePacer::PausePacer(int64_t interval_ns, ClockFn clock, YieldFn yield)
    : interval_ns_(interval_ns), clock_(clock), yield_(yield), last_ns_(clock()) {}

void PausePacer::tick() {
  const int64_t now = clock_();
  if (now - last_ns_ < interval_ns_) return;
  yield_();
  ++yields_;
  last_ns_ = clock_();  // the time spent away does not count as processing
}

int64_t pause_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void pause_yield() { sched_yield(); }

ScopedPausePacer::ScopedPausePacer(PausePacer* pacer) : previous_(t_pacer) { t_pacer = pacer; }

ScopedPausePacer::~ScopedPausePacer() { t_pacer = previous_; }

void pause_point() {
  if (t_pacer != nullptr) t_pacer->tick();
}

const PausePacer* current_pause_pacer() { return t_pacer; }

}  // namespace servebench::record
