// Start gate: every shard of a run begins its load at one wall-clock instant (--start-at, or
// the instant a launcher barrier hands out), so their arrival plans line up. The wait sleeps in
// short steps and polls the process interrupt flag (core/interrupt.h): Ctrl-C ends it at once.
//
// What a shard records (shard.json): the instant it was asked to start, the instant its wait
// ended, and the skew between them (positive: late). Across shards the skew is bounded by each
// host's wall-clock error (NTP: typically < 1 ms on one network) plus this wake-up's lateness
// (measured here, tens of microseconds).
//
// Thread safety: blocks the calling thread; no shared state.
#pragma once

#include <cstdint>

#include "core/clock.h"

namespace servebench::shard {

struct StartRecord {
  int64_t start_at_wall_ns = 0;  // requested instant (0: none; the shard started when ready)
  int64_t started_wall_ns = 0;   // when the wait ended
  int64_t skew_ns = 0;           // started − requested (0 without a request)
  int64_t waited_ns = 0;         // how long the shard waited
  bool interrupted = false;      // Ctrl-C during the wait
  bool late = false;             // the instant had already passed when the shard was ready
};

// Waits until wall time `start_at_wall_ns` (returns at once when 0 or past).
StartRecord wait_until(int64_t start_at_wall_ns, const core::Clock& clock);

}  // namespace servebench::shard
