#include "load/schedule.h"

#include <algorithm>
#include <functional>

namespace servebench::load {

int64_t backoff_delay_ns(const Backoff& backoff, int32_t failures) {
  if (failures <= 0) return 0;
  int64_t delay = backoff.first_ns;
  for (int32_t i = 1; i < failures && delay < backoff.max_ns; ++i) delay *= 2;
  return std::min(delay, backoff.max_ns);
}

WorkerSchedule::WorkerSchedule(const PhasePlan& plan, int worker, int workers, int64_t phase_start_ns,
                               std::atomic<int64_t>* issued, Backoff backoff)
    : plan_(plan),
      worker_(worker),
      workers_(workers),
      start_ns_(phase_start_ns),
      issued_(issued),
      backoff_(backoff) {
  const auto& s = plan.spec;
  issue_deadline_ns_ = s.duration_ns ? start_ns_ + *s.duration_ns : kNever;
  cancel_deadline_ns_ = (s.duration_ns && s.grace_ns != kNever) ? issue_deadline_ns_ + s.grace_ns : kNever;
  if (s.prefill_concurrency)
    prefill_share_ = std::max<int64_t>(1, worker_share(plan.prefill_limit_at(0), worker, workers));
  if (plan.open_loop()) {
    arrivals_.emplace(plan.spec, plan.seed);
    // This worker's arrivals are the shard's arrivals j ≡ worker (mod W); the shard's arrival j
    // is the plan's arrival j·N + I (plan.h, Shard).
    next_arrival_ = plan.shard.global(static_cast<uint64_t>(worker));
    advance_arrival(static_cast<int>(next_arrival_));  // the arrivals before belong to others
    if (next_arrival_ns_ == kNever) exhausted_ = true;
  }
  apply_ramp(start_ns_);
}

void WorkerSchedule::advance_arrival(int skip) {
  // Every worker runs the whole generator and keeps its own share: the sequence (and so the
  // plan) does not depend on the number of workers, and no memory per arrival is needed.
  for (int i = 0; i < skip; ++i) arrivals_->next();
  next_arrival_ns_ = arrivals_->next();
}

int64_t WorkerSchedule::concurrency_share_at(int64_t now_ns) const {
  return worker_share(plan_.concurrency_limit_at(now_ns - start_ns_), worker_, workers_);
}

void WorkerSchedule::apply_ramp(int64_t now_ns) {
  // Prefill ramp: this worker's share of the limit now (at least one, as without a ramp).
  if (plan_.prefill_steps.size() > 1)
    prefill_share_ = std::max<int64_t>(
        1, worker_share(plan_.prefill_limit_at(now_ns - start_ns_), worker_, workers_));
  // Closed loop: each ramp step that has come due adds this worker's new slots, free from the
  // step's instant (that instant is their intended time).
  const auto& steps = plan_.concurrency_steps;
  while (next_step_ < steps.size() && start_ns_ + steps[next_step_].offset_ns <= now_ns) {
    if (!plan_.open_loop()) {
      const int64_t share = worker_share(steps[next_step_].limit, worker_, workers_);
      const int64_t at = start_ns_ + steps[next_step_].offset_ns;
      for (; slots_granted_ < share; ++slots_granted_) push_slot(at, 0);
    }
    ++next_step_;
  }
}

bool WorkerSchedule::next_credit(int64_t now_ns, int64_t in_flight, int64_t prefill_in_flight,
                                 Credit* out) {
  if (exhausted_) return false;
  if (now_ns >= issue_deadline_ns_) {
    exhausted_ = true;
    return false;
  }
  apply_ramp(now_ns);
  ceiling_blocked_ = false;
  if (plan_.open_loop()) {
    const int64_t due = start_ns_ + next_arrival_ns_;
    if (due > now_ns) return false;
    // A due arrival held by a limit waits (the lag is charged); a completion or first token, not
    // a timer, makes the next try worthwhile.
    if (prefill_in_flight >= prefill_share_ || in_flight >= concurrency_share_at(now_ns)) {
      ceiling_blocked_ = true;
      return false;
    }
    out->index = next_arrival_;
    out->intended_ns = due;
    const int stride = workers_ * plan_.shard.count;
    next_arrival_ += static_cast<uint64_t>(stride);
    advance_arrival(stride - 1);
    if (next_arrival_ns_ == kNever) exhausted_ = true;
    return true;
  }
  if (prefill_in_flight >= prefill_share_) return false;
  if (free_slots_.empty() || free_slots_.front().free_ns > now_ns) return false;
  // A slot starts a session whose sends claim their own indices; a single request claims one.
  out->index = 0;
  if (!plan_.spec.sessions && !claim_request(&out->index)) return false;
  out->intended_ns = free_slots_.front().free_ns;
  out->slot_failures = free_slots_.front().failures;
  std::pop_heap(free_slots_.begin(), free_slots_.end(), std::greater<FreeSlot>());
  free_slots_.pop_back();
  return true;
}

void WorkerSchedule::push_slot(int64_t free_ns, int32_t failures) {
  free_slots_.push_back(FreeSlot{free_ns, slot_seq_++, failures});
  std::push_heap(free_slots_.begin(), free_slots_.end(), std::greater<FreeSlot>());
}

bool WorkerSchedule::requests_claimed() const {
  if (!issued_ || !plan_.spec.request_count) return false;
  return issued_->load(std::memory_order_relaxed) >= plan_.shard.share_of(*plan_.spec.request_count);
}

int64_t WorkerSchedule::backoff_wake_ns(int64_t now_ns) const {
  if (exhausted_ || free_slots_.empty() || free_slots_.front().free_ns <= now_ns) return kNever;
  return std::min(free_slots_.front().free_ns, issue_deadline_ns_);
}

bool WorkerSchedule::claim_request(uint64_t* index) {
  const int64_t count = plan_.spec.request_count.value_or(INT64_MAX);
  // The shard's i-th request is the plan's request i·N + I (plan.h, Shard).
  const uint64_t i = plan_.shard.global(static_cast<uint64_t>(issued_->fetch_add(1, std::memory_order_relaxed)));
  if (i >= static_cast<uint64_t>(count)) {
    exhausted_ = true;
    return false;
  }
  *index = i;
  return true;
}

void WorkerSchedule::on_request_done(int64_t now_ns, int32_t slot_failures) {
  ceiling_blocked_ = false;
  if (plan_.open_loop()) return;
  push_slot(now_ns + backoff_delay_ns(backoff_, slot_failures), slot_failures);
}

int64_t WorkerSchedule::next_wake_ns() const {
  if (exhausted_) return kNever;
  int64_t wake = kNever;
  // A due arrival held back by the concurrency ceiling waits for a completion, not a timer (a
  // timer at a past instant would spin the loop until then).
  if (plan_.open_loop() && !ceiling_blocked_) {
    wake = start_ns_ + next_arrival_ns_;
  }
  if (next_step_ < plan_.concurrency_steps.size())
    wake = std::min(wake, start_ns_ + plan_.concurrency_steps[next_step_].offset_ns);
  if (issue_deadline_ns_ != kNever) wake = std::min(wake, issue_deadline_ns_);
  return wake;
}

}  // namespace servebench::load
