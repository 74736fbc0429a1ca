#include "load/plan.h"

#include <algorithm>
#include <cmath>

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

double ramped_rate(double target_per_s, int64_t ramp_ns, int64_t offset_ns) {
  if (ramp_ns <= 0 || offset_ns >= ramp_ns) return target_per_s;
  const int64_t step = offset_ns / kRateRampUpdateNs + 1;
  const double frac = static_cast<double>(step * kRateRampUpdateNs) / static_cast<double>(ramp_ns);
  return target_per_s * std::min(1.0, frac);
}

std::vector<PhaseSpec> phases_from_config(const config::BenchmarkConfig& c) {
  PhaseSpec base;
  base.request_rate = c.request_rate;
  base.pattern = c.arrival_pattern;
  base.smoothness = c.arrival_smoothness.value_or(1.0);
  base.concurrency = c.effective_concurrency();
  base.prefill_concurrency = c.prefill_concurrency;
  base.concurrency_ramp_ns = c.concurrency_ramp_ns.value_or(0);
  base.rate_ramp_ns = c.request_rate_ramp_ns.value_or(0);
  std::vector<PhaseSpec> out;
  if (c.has_warmup()) {
    PhaseSpec w = base;
    w.phase = record::Phase::kWarmup;
    w.request_count = c.warmup_request_count;
    w.duration_ns = c.warmup_duration_ns;
    w.grace_ns = kNever;  // AIPerf: warm-up grace defaults to infinity
    out.push_back(w);
  }
  PhaseSpec p = base;
  p.phase = record::Phase::kProfiling;
  p.request_count = c.effective_request_count();
  p.duration_ns = c.benchmark_duration_ns;
  if (c.benchmark_duration_ns) {
    const int64_t g = c.effective_grace_ns();
    p.grace_ns = g == config::kInfiniteNs ? kNever : g;
  }
  out.push_back(p);
  return out;
}

PhasePlan build_phase_plan(const PhaseSpec& spec, uint64_t seed) {
  PhasePlan plan;
  plan.spec = spec;
  if (spec.concurrency) {
    const int64_t target = *spec.concurrency;
    if (spec.concurrency_ramp_ns > 0 && target > 1) {
      for (int64_t k = 0; k < target; ++k) {
        // Integer arithmetic so step instants are exact: k * ramp / (target - 1).
        const int64_t at = static_cast<int64_t>(
            (static_cast<__int128>(k) * spec.concurrency_ramp_ns) / (target - 1));
        plan.concurrency_steps.push_back({at, k + 1});
      }
    } else {
      plan.concurrency_steps.push_back({0, target});
    }
  }
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
  const double rate = ramped_rate(*spec_.request_rate, spec_.rate_ramp_ns, at);
  t_ns_ += process_->next_gap_s(rate) * 1e9;
  return at;
}

std::vector<int64_t> materialize_arrivals(const PhasePlan& plan, size_t limit) {
  std::vector<int64_t> out;
  ArrivalGenerator gen(plan.spec, plan.seed);
  for (int64_t at = gen.next(); at != kNever && out.size() < limit; at = gen.next()) out.push_back(at);
  return out;
}

Plan build_plan(const config::BenchmarkConfig& config, uint64_t seed) { return build_plan(config, seed, nullptr); }

Plan build_plan(const config::BenchmarkConfig& config, uint64_t seed,
                std::shared_ptr<const std::vector<int64_t>> fixed_offsets_ns, bool sessions) {
  Plan plan;
  plan.seed = seed;
  for (auto spec : phases_from_config(config)) {
    spec.sessions = sessions;
    if (spec.phase == record::Phase::kWarmup && config.num_warmup_sessions) {
      // Sessions of one turn are requests.
      if (sessions) spec.session_count = config.num_warmup_sessions;
      else spec.request_count = config.num_warmup_sessions;
    }
    if (sessions && spec.phase == record::Phase::kProfiling) {
      spec.session_count = config.num_sessions;
      if (config.user_centric_rate) {
        spec.user_centric = true;
        spec.request_rate.reset();
        spec.concurrency = config.concurrency;  // a ceiling on users in flight when given
      }
    }
    if (fixed_offsets_ns && spec.phase == record::Phase::kProfiling) {
      spec.fixed_offsets_ns = fixed_offsets_ns;
      spec.request_rate.reset();
      spec.concurrency = config.concurrency;  // a ceiling only when given (no closed-loop default)
      const auto n = static_cast<int64_t>(fixed_offsets_ns->size());
      if (sessions) {
        // One offset per session: every session of the file plays once unless a count says less.
        spec.session_count = spec.session_count ? std::min(*spec.session_count, n) : n;
      } else {
        spec.request_count = spec.request_count ? std::min(*spec.request_count, n) : n;
      }
    }
    plan.phases.push_back(build_phase_plan(spec, seed));
  }
  return plan;
}

int default_worker_count(const config::BenchmarkConfig& config, int cores) {
  int64_t w = std::max(1, cores - 1);
  if (config.workers_max) w = *config.workers_max;  // explicit: may exceed cores (tests, I/O-bound runs)
  if (auto c = config.effective_concurrency()) w = std::min<int64_t>(w, *c);
  if (config.prefill_concurrency) w = std::min<int64_t>(w, *config.prefill_concurrency);
  return static_cast<int>(std::max<int64_t>(1, w));
}

}  // namespace servebench::load
