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
// Stop rules (AIPerf §4.2): no credit at or after start + duration; requests still in flight at
// start + duration + grace are cancelled by the worker (cancel_deadline_ns()).
//
// Thread safety: owned by one worker thread; only the shared counter is touched concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <optional>

#include "load/plan.h"

namespace servebench::load {

struct Credit {
  uint64_t index = 0;       // global index within the phase (0-based)
  int64_t intended_ns = 0;  // absolute steady ns
};

class WorkerSchedule {
 public:
  // `issued` counts closed-loop credits of this phase across all workers (may be null for open
  // loop). The plan must outlive the schedule.
  WorkerSchedule(const PhasePlan& plan, int worker, int workers, int64_t phase_start_ns,
                 std::atomic<int64_t>* issued);

  // Returns true and fills *out when a request may be sent now, given this worker's current
  // in-flight and awaiting-first-token counts.
  bool next_credit(int64_t now_ns, int64_t in_flight, int64_t prefill_in_flight, Credit* out);
  // A request of this worker finished at now_ns (closed loop: its slot is free again). With
  // sessions: call when a session ends (a session holds its slot across its turns).
  void on_request_done(int64_t now_ns);
  // Sessions: claims the next request index of the phase (shared counter); false, and the
  // schedule is exhausted, once request_count requests were claimed.
  bool claim_request(uint64_t* index);
  // Earliest time at which next_credit may start returning a credit without any completion
  // (next arrival or ramp step); kNever when only a completion can help.
  int64_t next_wake_ns() const;
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
  // Closed loop: instants at which free slots became free, oldest first.
  std::deque<int64_t> free_slots_;
  size_t next_step_ = 0;      // next concurrency ramp step to apply
  int64_t slots_granted_ = 0; // this worker's share applied so far
  bool ceiling_blocked_ = false;  // the due arrival waits for the concurrency ceiling
};

}  // namespace servebench::load
