#include "config/scenario.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace servebench::config {
namespace {

tl::unexpected<Error> bad(std::string m) { return tl::unexpected(Error{ErrorCode::kInvalidArgument, std::move(m)}); }

std::string seconds_text(int64_t ns) { return fmt::format("{:g}", static_cast<double>(ns) / 1e9); }

// One scenario lock: fills an unset option, or reports a given one that breaks it.
struct Lock {
  const char* tag;
  void (*apply)(BenchmarkConfig* c, std::vector<std::string>* violations);
};

void lock_streaming(BenchmarkConfig* c, std::vector<std::string>*) { c->streaming = true; }

void lock_ignore_eos(BenchmarkConfig* c, std::vector<std::string>* v) {
  auto j = c->extra_inputs_json.empty() ? nlohmann::json::object() : nlohmann::json::parse(c->extra_inputs_json, nullptr, false);
  if (!j.is_object()) j = nlohmann::json::object();
  if (j.contains("ignore_eos") && j["ignore_eos"] != true) {
    v->push_back(fmt::format("--extra-inputs ignore_eos:{} (required true)", j["ignore_eos"].dump()));
    return;
  }
  j["ignore_eos"] = true;
  c->extra_inputs_json = j.dump();
}

void lock_cache_bust(BenchmarkConfig* c, std::vector<std::string>* v) {
  if (c->cache_bust == CacheBust::kNone) c->cache_bust = CacheBust::kFirstTurnPrefix;
  if (c->cache_bust != CacheBust::kFirstTurnPrefix)
    v->push_back(fmt::format("--cache-bust {} (required first_turn_prefix)", cache_bust_name(c->cache_bust)));
}

void lock_system_idle_gap(BenchmarkConfig* c, std::vector<std::string>* v) {
  auto& cap = c->agentic.system_idle_gap_cap_s;
  if (!cap) cap = kAgentxSystemIdleGapCapS;
  if (*cap != kAgentxSystemIdleGapCapS)
    v->push_back(fmt::format("--system-idle-gap-cap-seconds {:g} (required {:g})", *cap, kAgentxSystemIdleGapCapS));
}

void lock_delays(BenchmarkConfig* c, std::vector<std::string>* v) {
  if (c->use_think_time_only) v->push_back("--use-think-time-only (the scenario replays end-to-start gaps)");
  if (c->agentic.ignore_trace_delays) v->push_back("--ignore-trace-delays (the scenario replays recorded gaps)");
  if (c->inter_turn_delay_cap_s)
    v->push_back(fmt::format("--inter-turn-delay-cap-seconds {:g} (the scenario forbids per-turn caps)", *c->inter_turn_delay_cap_s));
  if (c->agentic.trace_idle_gap_cap_s)
    v->push_back(fmt::format("--trace-idle-gap-cap-seconds {:g} (the scenario forbids per-trace caps)", *c->agentic.trace_idle_gap_cap_s));
}

void lock_load(BenchmarkConfig* c, std::vector<std::string>* v) {
  if (c->request_rate) v->push_back(fmt::format("--request-rate {:g} (the scenario's lanes are closed loop)", *c->request_rate));
  if (c->user_centric_rate) v->push_back("--user-centric-rate (the scenario's lanes are closed loop)");
  if (c->fixed_schedule.value_or(false)) v->push_back("--fixed-schedule (the scenario replays lanes, not a schedule)");
}

void lock_duration(BenchmarkConfig* c, std::vector<std::string>* v) {
  if (!c->benchmark_duration_ns) c->benchmark_duration_ns = kAgentxDefaultDurationNs;
  if (*c->benchmark_duration_ns < kAgentxMinDurationNs)
    v->push_back(fmt::format("--benchmark-duration {} (at least {} s)", seconds_text(*c->benchmark_duration_ns),
                             seconds_text(kAgentxMinDurationNs)));
}

constexpr Lock kAgentxLocks[] = {
    {"timing_mode", [](BenchmarkConfig* c, std::vector<std::string>*) { c->agentic.replay = true; }},
    {"streaming", lock_streaming},
    {"ignore_eos", lock_ignore_eos},
    {"cache_bust", lock_cache_bust},
    {"system_idle_gap_cap", lock_system_idle_gap},
    {"delays", lock_delays},
    {"load", lock_load},
    {"benchmark_duration", lock_duration},
};

}  // namespace

Status apply_scenario(BenchmarkConfig* c) {
  AgenticOptions& a = c->agentic;
  if (a.scenario.empty()) return {};
  if (c->input_file.empty() && c->public_dataset.empty())
    return bad(fmt::format("--scenario {} replays weka_trace files; add --input-file (a trace or a folder of them) "
                           "or a weka --public-dataset (semianalysis_cc_traces_weka_*, --hf-weka-dataset)",
                           a.scenario));
  ScenarioOutcome out;
  std::vector<std::string> violations;
  for (const Lock& lock : kAgentxLocks) {
    lock.apply(c, &violations);
    out.applied_locks.emplace_back(lock.tag);
  }
  if (!violations.empty() && !a.unsafe_override) {
    std::string joined;
    for (const auto& v : violations) joined += (joined.empty() ? "" : "; ") + v;
    return bad(fmt::format("--scenario {} locks its options: {}; drop them, or add --unsafe-override (the run is "
                           "then stamped submission_valid=false)",
                           a.scenario, joined));
  }
  out.violations = std::move(violations);
  if (!out.violations.empty()) {
    out.submission_valid = false;
    out.invalid_reasons.emplace_back("unsafe_override");
  }
  a.outcome = std::move(out);
  return {};
}

Status validate_agentic(const BenchmarkConfig& c) {
  const AgenticOptions& a = c.agentic;
  if (a.scenario.empty()) {
    const std::pair<bool, const char*> only[] = {
        {a.unsafe_override, "--unsafe-override"},
        {a.start_min_ratio.has_value(), "--trajectory-start-min-ratio"},
        {a.start_max_ratio.has_value(), "--trajectory-start-max-ratio"},
        {a.burst_phase_starts, "--burst-phase-starts"},
        {a.allow_dataset_wrap.has_value(), "--allow-dataset-wrap/--no-allow-dataset-wrap"},
        {a.warmup_grace_ns.has_value(), "--agentic-warmup-grace-period"},
        {a.cache_warmup_ns.has_value(), "--agentic-cache-warmup-duration"},
        {a.system_idle_gap_cap_s.has_value(), "--system-idle-gap-cap-seconds"},
    };
    for (const auto& [given, flag] : only)
      if (given) return bad(fmt::format("{} applies only to agentic replay; add --scenario {} or drop it", flag, kAgentxScenario));
  }
  if (a.min_ratio() > a.max_ratio())
    return bad(fmt::format("--trajectory-start-min-ratio {:g} is above --trajectory-start-max-ratio {:g}; swap them",
                           a.min_ratio(), a.max_ratio()));
  if (a.ignore_trace_delays && c.use_think_time_only)
    return bad("--ignore-trace-delays and --use-think-time-only contradict; keep one");
  if ((a.ignore_trace_delays || a.trace_idle_gap_cap_s) && c.input_file.empty() && c.public_dataset.empty())
    return bad(fmt::format("{} needs --input-file (a trace) or a trace --public-dataset",
                           a.ignore_trace_delays ? "--ignore-trace-delays" : "--trace-idle-gap-cap-seconds"));
  if (a.replay && c.has_warmup())
    return bad(fmt::format("--scenario {} primes the cache with its own warm-up; drop the --warmup-* flags", a.scenario));
  return {};
}

}  // namespace servebench::config
