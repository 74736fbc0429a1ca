// WorkerSchedule: one worker's view of a phase — which request to send next and when — as pure
// logic over timestamps, so it is unit-tested with a fake clock and no network.
//
// The worker asks next_credit() whenever something changed (timer fired, request finished,
// first token arrived). A credit carries the request's global index and its intended time:
//   open loop:   the planned arrival (phase start + offset); arrivals are dealt i mod W;
//   closed loop: the moment the slot freed (phase start, a ramp step, or a completion).
// Limits are this worker's shares of the global ones (plan.h): concurrency (ramped), prefill
// concurrency. The closed-loop request count is global: one relaxed fetch_add per request on a
// counter shared by the phase's workers.
//
// Back-off (closed loop only): a slot whose request failed at the connection level (refused,
// unreachable, TLS handshake, reset before any byte; is_connection_failure in unreachable.h) is
// free again only after backoff_delay_ns of its consecutive failures (first_ns, doubling, capped
// at max_ns); its first request that reaches the server resets it. Without this a dead server
// turns every slot into a tight loop of ~50 µs failures (hundreds of thousands of records in a
// few seconds). The delayed instant is the next request's intended time: the wait is the plan's
// choice, not client lag. Open loop keeps its schedule (AIPerf semantics): its number of sends
// is the rate times the duration the user chose, dead server or not.
//
// Stop rules (AIPerf §4.2): no credit at or after start + duration; requests still in flight at
// start + duration + grace are cancelled by the worker (cancel_deadline_ns()).
//
// Thread safety: owned by one worker thread; only the shared counter is touched concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>
#include <optional>

#include "load/plan.h"

namespace servebench::load {

struct Credit {
  uint64_t index = 0;       // global index within the phase (0-based)
  int64_t intended_ns = 0;  // absolute steady ns
  int32_t slot_failures = 0;  // closed loop: consecutive connection failures of this slot so far
};

struct Backoff {
  int64_t first_ns = 1'000'000;      // after the first connection failure
  int64_t max_ns = 1'000'000'000;    // cap of the doubling
};

// Delay before a slot with `failures` consecutive connection failures sends again: 0 for none,
// then first_ns · 2^(failures-1), capped at max_ns.
int64_t backoff_delay_ns(const Backoff& backoff, int32_t failures);

class WorkerSchedule {
 public:
  // `issued` counts closed-loop credits of this phase across all workers (may be null for open
  // loop). The plan must outlive the schedule.
  WorkerSchedule(const PhasePlan& plan, int worker, int workers, int64_t phase_start_ns,
                 std::atomic<int64_t>* issued, Backoff backoff = {});

  // Returns true and fills *out when a request may be sent now, given this worker's current
  // in-flight and awaiting-first-token counts.
  bool next_credit(int64_t now_ns, int64_t in_flight, int64_t prefill_in_flight, Credit* out);
  // A request of this worker finished at now_ns (closed loop: its slot is free again, after the
  // back-off of `slot_failures`, the slot's consecutive connection failures including this
  // request's: Credit::slot_failures + 1 when it failed so, else 0). With sessions: call when a
  // session ends (a session holds its slot across its turns).
  void on_request_done(int64_t now_ns, int32_t slot_failures = 0);
  // Sessions: claims the next request index of the phase (shared counter); false, and the
  // schedule is exhausted, once request_count requests were claimed.
  bool claim_request(uint64_t* index);
  // Earliest time at which next_credit may start returning a credit without any completion
  // (next arrival or ramp step); kNever when only a completion can help.
  int64_t next_wake_ns() const;
  // Closed loop: when the earliest slot still backing off at now_ns becomes free; kNever if none.
  int64_t backoff_wake_ns(int64_t now_ns) const;
  // True once the phase's request count was claimed in full (all workers): nothing is left to
  // send, even for slots still backing off.
  bool requests_claimed() const;
  // True when this worker will never issue again in this phase.
  bool exhausted() const { return exhausted_; }
  // Stop issuing (duration reached, Ctrl-C).
  void stop() { exhausted_ = true; }

  int64_t issue_deadline_ns() const { return issue_deadline_ns_; }
  int64_t cancel_deadline_ns() const { return cancel_deadline_ns_; }
  int64_t concurrency_share_at(int64_t now_ns) const;
  int64_t prefill_share() const { return prefill_share_; }

 private:
  void apply_ramp(int64_t now_ns);

  const PhasePlan& plan_;
  const int worker_;
  const int workers_;
  const int64_t start_ns_;
  std::atomic<int64_t>* issued_;
  int64_t issue_deadline_ns_;
  int64_t cancel_deadline_ns_;
  int64_t prefill_share_ = kNever;
  bool exhausted_ = false;
  // Open loop: this worker's arrivals (i ≡ worker mod W) from the phase's generator.
  void advance_arrival(int skip);
  std::optional<ArrivalGenerator> arrivals_;
  uint64_t next_arrival_ = 0;          // global index of the pending arrival
  int64_t next_arrival_ns_ = kNever;   // its offset (kNever: none left)
  // Closed loop: free slots, a min-heap on (free_ns, seq): the order in which they became free,
  // which a slot backing off joins only at the end of its delay.
  struct FreeSlot {
    int64_t free_ns;
    uint64_t seq;
    int32_t failures;
    bool operator>(const FreeSlot& o) const {
      return free_ns != o.free_ns ? free_ns > o.free_ns : seq > o.seq;
    }
  };
  void push_slot(int64_t free_ns, int32_t failures);
  const Backoff backoff_;
  std::vector<FreeSlot> free_slots_;
  uint64_t slot_seq_ = 0;
  size_t next_step_ = 0;      // next concurrency ramp step to apply
  int64_t slots_granted_ = 0; // this worker's share applied so far
  bool ceiling_blocked_ = false;  // the due arrival waits for the concurrency ceiling
};

}  // namespace servebench::load
