#include "load/plan.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/rng.h"
#include "load/arrival.h"

namespace servebench::load {

int64_t PhasePlan::concurrency_limit_at(int64_t offset_ns) const {
  if (concurrency_steps.empty()) return kNever;
  // Steps are few (at most the target); the last step at or before t wins.
  auto it = std::upper_bound(concurrency_steps.begin(), concurrency_steps.end(), offset_ns,
                             [](int64_t t, const RampStep& s) { return t < s.offset_ns; });
  if (it == concurrency_steps.begin()) return concurrency_steps.front().limit;
  return std::prev(it)->limit;
}

int64_t PhasePlan::prefill_limit_at(int64_t offset_ns) const {
  if (prefill_steps.empty()) return kNever;
  auto it = std::upper_bound(prefill_steps.begin(), prefill_steps.end(), offset_ns,
                             [](int64_t t, const RampStep& s) { return t < s.offset_ns; });
  if (it == prefill_steps.begin()) return prefill_steps.front().limit;
  return std::prev(it)->limit;
}

double phase_rate_at(const PhaseSpec& spec, int64_t offset_ns) {
  if (spec.rate_series && offset_ns >= spec.rate_ramp_ns)
    return spec.rate_series->rate_at(offset_ns - spec.rate_ramp_ns);
  return ramped_rate(*spec.request_rate, spec.rate_ramp_ns, offset_ns);
}

std::vector<RampStep> ramp_steps(int64_t target, int64_t ramp_ns) {
  std::vector<RampStep> steps;
  if (ramp_ns <= 0 || target <= 1) {
    steps.push_back({0, target});
    return steps;
  }
  for (int64_t k = 0; k < target; ++k) {
    // Integer arithmetic so step instants are exact: k * ramp / (target - 1).
    const int64_t at = static_cast<int64_t>((static_cast<__int128>(k) * ramp_ns) / (target - 1));
    steps.push_back({at, k + 1});
  }
  return steps;
}

double ramped_rate(double target_per_s, int64_t ramp_ns, int64_t offset_ns) {
  if (ramp_ns <= 0 || offset_ns >= ramp_ns) return target_per_s;
  const int64_t step = offset_ns / kRateRampUpdateNs + 1;
  const double frac = static_cast<double>(step * kRateRampUpdateNs) / static_cast<double>(ramp_ns);
  return target_per_s * std::min(1.0, frac);
}

namespace {

// The profiling shape with the warm-up's own values where given (each falls back).
PhaseSpec warmup_shape(const PhaseSpec& base, const LoadSpec& s) {
  PhaseSpec w = base;
  const WarmupLoad& o = s.warmup_load;
  if (o.request_rate) {
    w.request_rate = o.request_rate;
    // Open loop: only a limit the user gave is a ceiling (not the closed-loop default of 1).
    w.concurrency = o.concurrency ? o.concurrency : s.concurrency_ceiling;
  } else if (o.concurrency) {
    w.concurrency = o.concurrency;
  }
  if (o.arrival_pattern) w.pattern = *o.arrival_pattern;
  if (o.prefill_concurrency) w.prefill_concurrency = o.prefill_concurrency;
  if (o.concurrency_ramp_ns) w.concurrency_ramp_ns = *o.concurrency_ramp_ns;
  if (o.prefill_ramp_ns) w.prefill_ramp_ns = *o.prefill_ramp_ns;
  if (o.rate_ramp_ns) w.rate_ramp_ns = *o.rate_ramp_ns;
  return w;
}

}  // namespace

std::vector<PhaseSpec> phases_from_spec(const LoadSpec& s) {
  PhaseSpec base;
  base.request_rate = s.request_rate;
  base.pattern = s.arrival_pattern;
  base.smoothness = s.arrival_smoothness;
  base.concurrency = s.concurrency;
  base.prefill_concurrency = s.prefill_concurrency;
  base.concurrency_ramp_ns = s.concurrency_ramp_ns;
  base.rate_ramp_ns = s.rate_ramp_ns;
  base.prefill_ramp_ns = s.prefill_ramp_ns;
  base.sessions = s.sessions;
  std::vector<PhaseSpec> out;
  if (s.has_warmup()) {
    PhaseSpec w = warmup_shape(base, s);
    w.phase = record::Phase::kWarmup;
    w.request_count = s.warmup_request_count;
    w.duration_ns = s.warmup_duration_ns;
    // AIPerf: warm-up grace defaults to infinity.
    w.grace_ns = s.warmup_load.grace_ns && *s.warmup_load.grace_ns != INT64_MAX ? *s.warmup_load.grace_ns : kNever;
    if (s.warmup_sessions) {
      // Sessions of one turn are requests.
      if (s.sessions) w.session_count = s.warmup_sessions;
      else w.request_count = s.warmup_sessions;
    }
    out.push_back(w);
  }
  PhaseSpec p = base;
  p.phase = record::Phase::kProfiling;
  p.index = static_cast<int>(out.size());
  p.rate_series = s.rate_series;
  p.request_count = s.request_count;
  p.duration_ns = s.duration_ns;
  if (s.duration_ns) p.grace_ns = s.grace_ns;
  if (s.sessions) {
    p.session_count = s.session_count;
    if (s.user_centric) {
      p.user_centric = true;
      p.request_rate.reset();
      p.concurrency = s.concurrency_ceiling;  // a ceiling on users in flight when given
    }
  }
  if (s.fixed_offsets_ns) {
    p.fixed_offsets_ns = s.fixed_offsets_ns;
    p.request_rate.reset();
    p.concurrency = s.concurrency_ceiling;  // a ceiling only when given (no closed-loop default)
    const auto n = static_cast<int64_t>(s.fixed_offsets_ns->size());
    // One offset per request (or session): the file plays once unless a count says less.
    auto& count = s.sessions ? p.session_count : p.request_count;
    count = count ? std::min(*count, n) : n;
  }
  out.push_back(p);
  return out;
}

PhasePlan build_phase_plan(const PhaseSpec& spec, uint64_t seed) {
  PhasePlan plan;
  plan.spec = spec;
  if (spec.concurrency) plan.concurrency_steps = ramp_steps(*spec.concurrency, spec.concurrency_ramp_ns);
  if (spec.prefill_concurrency)
    plan.prefill_steps = ramp_steps(*spec.prefill_concurrency, spec.prefill_ramp_ns);
  plan.seed = seed;
  return plan;
}

ArrivalGenerator::ArrivalGenerator(const PhaseSpec& spec, uint64_t seed) : spec_(spec) {
  const char* stream = spec.phase == record::Phase::kWarmup ? "arrivals.warmup" : "arrivals.profiling";
  process_ = make_arrival_process(spec.pattern, spec.smoothness, core::Rng::stream(seed, stream));
}
ArrivalGenerator::ArrivalGenerator(ArrivalGenerator&&) noexcept = default;
ArrivalGenerator& ArrivalGenerator::operator=(ArrivalGenerator&&) noexcept = default;
ArrivalGenerator::~ArrivalGenerator() = default;

int64_t ArrivalGenerator::next() {
  if (spec_.fixed_offsets_ns) {
    const auto& fixed = *spec_.fixed_offsets_ns;
    if (produced_ >= static_cast<int64_t>(fixed.size())) return kNever;
    if (!spec_.sessions && produced_ >= spec_.request_count.value_or(INT64_MAX)) return kNever;
    if (spec_.sessions && produced_ >= spec_.session_count.value_or(INT64_MAX)) return kNever;
    const int64_t at = fixed[static_cast<size_t>(produced_)];
    if (at >= spec_.duration_ns.value_or(kNever)) return kNever;
    ++produced_;
    return at;
  }
  if (!spec_.request_rate) return kNever;
  if (!spec_.sessions && produced_ >= spec_.request_count.value_or(INT64_MAX)) return kNever;
  const int64_t at = static_cast<int64_t>(std::llround(t_ns_));
  if (at >= spec_.duration_ns.value_or(kNever)) return kNever;
  ++produced_;
  const double rate = phase_rate_at(spec_, at);
  t_ns_ += process_->next_gap_s(rate) * 1e9;
  return at;
}

std::vector<int64_t> materialize_arrivals(const PhasePlan& plan, size_t limit) {
  std::vector<int64_t> out;
  ArrivalGenerator gen(plan.spec, plan.seed);
  for (int64_t at = gen.next(); at != kNever && out.size() < limit; at = gen.next()) out.push_back(at);
  return out;
}

Plan build_plan(const LoadSpec& spec, uint64_t seed) {
  Plan plan;
  plan.seed = seed;
  for (const auto& phase : phases_from_spec(spec))
    plan.phases.push_back(build_phase_plan(phase, seed));
  return plan;
}

namespace {
int64_t shard_limit(int64_t limit, Shard shard) { return worker_share(limit, shard.index, shard.count); }
}  // namespace

Status apply_shard(Plan* plan, Shard shard) {
  plan->shard = shard;
  std::optional<uint64_t> base;
  for (auto& phase : plan->phases) {
    phase.shard = shard;
    if (shard.split() && &phase != &plan->phases.front()) phase.index_base = base.value_or(1ULL << 32);
    const auto& s = phase.spec;
    base.reset();
    if (!s.sessions && s.request_count) base = static_cast<uint64_t>(*s.request_count);
    if (!shard.split()) continue;
    for (auto& step : phase.concurrency_steps) step.limit = shard_limit(step.limit, shard);
    for (auto* limit : {&phase.spec.concurrency, &phase.spec.prefill_concurrency}) {
      if (!*limit) continue;
      if (shard_limit(**limit, shard) == 0)
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("--shard {}/{}: a concurrency limit of {} leaves this shard no "
                                      "slot; give --concurrency (and --prefill-concurrency) at "
                                      "least {}",
                                      shard.index, shard.count, **limit, shard.count));
      **limit = shard_limit(**limit, shard);
    }
  }
  return {};
}

LoadSpec shard_load_spec(LoadSpec spec, Shard shard) {
  if (!shard.split()) return spec;
  if (spec.concurrency) spec.concurrency = std::max<int64_t>(1, shard_limit(*spec.concurrency, shard));
  if (spec.prefill_concurrency)
    spec.prefill_concurrency = std::max<int64_t>(1, shard_limit(*spec.prefill_concurrency, shard));
  return spec;
}

int default_worker_count(const LoadSpec& spec, int cores) {
  int64_t w = std::max(1, cores - 1);
  if (spec.workers_max) w = *spec.workers_max;  // explicit: may exceed cores (tests, I/O-bound runs)
  // A warm-up with a larger limit than profiling is served by the profiling phase's workers.
  if (spec.concurrency) w = std::min<int64_t>(w, *spec.concurrency);
  if (spec.prefill_concurrency) w = std::min<int64_t>(w, *spec.prefill_concurrency);
  return static_cast<int>(std::max<int64_t>(1, w));
}

}  // namespace servebench::load
