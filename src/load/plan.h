// Plan: what the load engine will do, computed before t0 as a pure function of the load spec and
// the seed (same seed ⇒ identical plan, on any machine). A plan is a list of phases (optional
// warm-up, then profiling); each phase is either
//   - open loop: intended send times (offsets from the phase start) for every request, optionally
//     under a concurrency ceiling; fixed before t0 by (spec, seed) and produced in order by
//     ArrivalGenerator, so no memory is spent per arrival, or
//   - closed loop: concurrency slots; a request's intended time is the moment its slot freed.
// Ramps follow AIPerf (aiperf-inventory.md §4.3):
//   - concurrency: integer steps from 1 to the target, +1 at evenly spaced instants over the
//     ramp duration (step k, limit k+1, at k * ramp / (target - 1));
//   - request rate: rate(t) = target * min(1, (floor(t / 100 ms) + 1) * 100 ms / ramp), i.e. it
//     starts at target * (0.1 s / ramp) and is updated every 0.1 s.
// Work is dealt to W workers: arrival i to worker i mod W; slot s of the concurrency limit to
// worker s mod W (so a worker's share of a limit L is L / W, plus one when w < L mod W).
//
// Thread safety: immutable after build; read by every worker.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "load/load_spec.h"
#include "record/request_record.h"

namespace servebench::load {

inline constexpr int64_t kRateRampUpdateNs = 100'000'000;  // AIPerf's 0.1 s rate-ramp update

struct PhaseSpec {
  record::Phase phase = record::Phase::kProfiling;
  int index = 0;                              // position in the run's ordered phases
  std::optional<double> request_rate;         // open loop when set
  ArrivalPattern pattern = ArrivalPattern::kPoisson;
  double smoothness = 1.0;
  std::optional<int64_t> concurrency;         // closed loop (alone) or ceiling (with a rate)
  std::optional<int64_t> prefill_concurrency;
  std::optional<int64_t> request_count;       // stop after this many requests
  std::optional<int64_t> duration_ns;         // stop issuing after this long
  int64_t grace_ns = kNever;                  // after the duration: then cancel what is in flight
  int64_t concurrency_ramp_ns = 0;
  int64_t rate_ramp_ns = 0;
  int64_t prefill_ramp_ns = 0;
  // Open loop: the rate follows this series after the rate ramp (request_rate is then its
  // first rate); null = the constant request_rate (rate_series.h).
  std::shared_ptr<const RateSeries> rate_series;
  // Fixed schedule (trace replay): the intended offsets of every request, ascending; request i
  // of the phase is dataset entry i. Open loop when set; `request_rate` must be unset.
  std::shared_ptr<const std::vector<int64_t>> fixed_offsets_ns;
  // Sessions (sessions.h): a credit starts a session or carries a session's next turn, and every
  // send claims its request index from the phase's shared counter (WorkerSchedule::claim_request),
  // so request_count counts turns and never limits the arrivals; fixed_offsets_ns then holds
  // one first-turn offset per session. session_count bounds how many sessions start.
  bool sessions = false;
  std::optional<int64_t> session_count;
  bool user_centric = false;  // first turns come from UserCentricGenerator, not from credits
};

struct RampStep {
  int64_t offset_ns;  // from the phase start
  int64_t limit;      // global limit from this instant on
};

// The open-loop arrival offsets of one phase, in order, as a pure function of (spec, seed):
// first arrival at 0, then gaps from the phase's ArrivalProcess at the (ramped) rate, until the
// request count or the duration is reached. Generated on demand so that a long run at a high
// rate needs no memory per arrival; materialize_arrivals() gives the whole list (tests, export).
class ArrivalGenerator {
 public:
  ArrivalGenerator(const PhaseSpec& spec, uint64_t seed);
  ArrivalGenerator(ArrivalGenerator&&) noexcept;
  ArrivalGenerator& operator=(ArrivalGenerator&&) noexcept;
  ~ArrivalGenerator();
  // Offset of the next arrival from the phase start; kNever when there are no more.
  int64_t next();

 private:
  PhaseSpec spec_;
  std::unique_ptr<class ArrivalProcess> process_;
  double t_ns_ = 0;  // accumulated in double ns so rounding never drifts the mean rate
  int64_t produced_ = 0;
};

// One process's share of a plan run by N processes (`--shard I/N`, docs/scale-out.md). The plan
// is built whole and identically by every process; the shard only selects from it:
//   open loop (rate, fixed schedule): arrival i belongs to shard i mod N;
//   closed loop: concurrency slot s belongs to shard s mod N (so the first L mod N shards hold
//     one slot more), and request index i (its body, its X-Request-ID) to shard i mod N;
//   sessions: session k (a whole conversation, every turn) belongs to shard k mod N.
// Shard 0 of 1 is the single-process plan.
struct Shard {
  int32_t index = 0;
  int32_t count = 1;
  bool split() const { return count > 1; }
  // Global index of this shard's `local`-th item (arrival, request, session).
  uint64_t global(uint64_t local) const {
    return local * static_cast<uint64_t>(count) + static_cast<uint64_t>(index);
  }
  // How many of the first `total` global items belong to this shard.
  int64_t share_of(int64_t total) const {
    return total > index ? (total - index + count - 1) / count : 0;
  }
};

struct PhasePlan {
  PhaseSpec spec;
  Shard shard;                                // the part of this phase this process runs
  // First request index of this phase when it is fixed by the plan (a sharded run numbers
  // requests without knowing what other shards sent); unset: after the previous phase's sends.
  std::optional<uint64_t> index_base;
  uint64_t seed = 0;                          // arrivals: ArrivalGenerator(spec, seed)
  std::vector<RampStep> concurrency_steps;    // closed loop or ceiling; empty = no limit
  std::vector<RampStep> prefill_steps;        // prefill-concurrency limit; empty = no limit

  bool open_loop() const { return spec.request_rate.has_value() || spec.fixed_offsets_ns != nullptr; }
  // Global concurrency limit at offset t (kNever when unlimited).
  int64_t concurrency_limit_at(int64_t offset_ns) const;
  // Global prefill-concurrency limit at offset t (kNever when unlimited).
  int64_t prefill_limit_at(int64_t offset_ns) const;
};

struct Plan {
  uint64_t seed = 0;
  std::vector<PhasePlan> phases;  // warm-up (if any) first, then profiling
  Shard shard;
};

// Phases the spec asks for: warm-up (if any; the profiling load shape overridden by the spec's
// warm-up load, infinite grace unless given, as in AIPerf), then profiling with its stop
// conditions, rate series, sessions and fixed schedule.
std::vector<PhaseSpec> phases_from_spec(const LoadSpec& spec);

// Builds one phase. Open loop needs a request count or a duration (else it would be infinite).
PhasePlan build_phase_plan(const PhaseSpec& spec, uint64_t seed);
// Every arrival offset of an open-loop phase (stops at `limit` entries).
std::vector<int64_t> materialize_arrivals(const PhasePlan& plan, size_t limit = 100'000'000);
Plan build_plan(const LoadSpec& spec, uint64_t seed);

// Keeps `shard`'s part of a built plan (see Shard): concurrency limits (closed-loop slots,
// ceilings, prefill) become the shard's round-robin share of each ramp step, and a phase after a
// warm-up of a known request count numbers its requests from that count (else from 2^32, so no
// two shards reuse an index). Fails (kUsage) when a concurrency limit leaves the shard no slot.
// REQUIRES: 0 <= shard.index < shard.count.
Status apply_shard(Plan* plan, Shard shard);
// The load spec a shard's worker count is sized from (its share of the concurrency limits).
LoadSpec shard_load_spec(LoadSpec spec, Shard shard);

// Global rate at offset t of a phase with the given target and ramp (0 = no ramp).
double ramped_rate(double target_per_s, int64_t ramp_ns, int64_t offset_ns);
// The phase's open-loop rate at offset t: the ramp towards request_rate, then the rate series
// (when set) from the end of the ramp.
double phase_rate_at(const PhaseSpec& spec, int64_t offset_ns);
// AIPerf's ramp steps from 1 to `target`: +1 at k * ramp / (target - 1); one step without a ramp.
std::vector<RampStep> ramp_steps(int64_t target, int64_t ramp_ns);

// Worker w's share of a global limit dealt round-robin over `workers`.
inline int64_t worker_share(int64_t limit, int worker, int workers) {
  if (limit == kNever) return kNever;
  return limit / workers + (worker < limit % workers ? 1 : 0);
}

// Worker count: --workers-max when given, else cores − 1 (at least 1); capped by the closed-loop
// concurrency and prefill concurrency (a worker with no slot would idle).
int default_worker_count(const LoadSpec& spec, int cores);

}  // namespace servebench::load
