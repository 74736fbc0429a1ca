// The system idle-gap cap of agentic replay (--system-idle-gap-cap-seconds): when no request of
// the run is in flight, the session turns waiting for their time move earlier by one common
// amount so that the next one goes at most `cap` after the run went idle. Order and spacing of
// the waiting turns are kept.
//
// Every worker counts its requests in and out of one shared relaxed atomic (one increment and
// one decrement per request) and notes when the count dropped to zero; a worker with waiting
// turns checks the cap when it pumps, and polls at most kIdleCapPollNs apart while idle (a
// worker asleep on a far timer must notice that another worker's last reply made the run
// idle). Each worker shifts its own waiting turns, so across workers the common shift is the
// same only up to the poll interval.
//
// Thread safety: IdleGapCap is shared by the workers; its members are atomics.
#pragma once

#include <atomic>
#include <cstdint>

namespace servebench::load {

inline constexpr int64_t kIdleCapPollNs = 50'000'000;

struct IdleGapCap {
  explicit IdleGapCap(int64_t cap) : cap_ns(cap) {}
  const int64_t cap_ns;
  std::atomic<int64_t> in_flight{0};
  std::atomic<int64_t> idle_since_ns{0};  // steady ns of the last drop to zero in flight

  void on_send() { in_flight.fetch_add(1, std::memory_order_relaxed); }
  void on_done(int64_t now_ns) {
    if (in_flight.fetch_sub(1, std::memory_order_relaxed) == 1)
      idle_since_ns.store(now_ns, std::memory_order_relaxed);
  }
};

// How much earlier waiting turns move: the earliest waiting turn is due at `earliest_ns`; the
// run has been idle since max(idle_since_ns, phase_start_ns). 0 when something is in flight or
// the earliest turn is within the cap.
inline int64_t idle_shift_ns(int64_t cap_ns, int64_t in_flight, int64_t idle_since_ns, int64_t phase_start_ns,
                             int64_t earliest_ns) {
  if (cap_ns < 0 || in_flight > 0) return 0;
  const int64_t since = idle_since_ns > phase_start_ns ? idle_since_ns : phase_start_ns;
  const int64_t due = since + cap_ns;
  return earliest_ns > due ? earliest_ns - due : 0;
}

}  // namespace servebench::load
