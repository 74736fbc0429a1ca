// Agent-trace flags (config/flag_table.h): how weka_trace sessions are replayed, and the agentic
// replay scenario (config/scenario.h). Not exported to input_config yet (its layout is
// golden-tested; add their keys together with it).
#include <fmt/format.h>

#include <cmath>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

FlagSpec unexported(FlagSpec s) {
  s.json_key.clear();
  s.to_json = nullptr;
  return s;
}

// A switch that sets one field of the agentic options.
FlagSpec agentic_switch(const char* name, const char* help, bool AgenticOptions::*f) {
  FlagSpec s = base(name, help, "");
  s.arity = FlagArity::kSwitch;
  s.apply = [f](const FlagInput& in, C* c) -> Status {
    if (in.on) c->agentic.*f = true;
    return {};
  };
  return s;
}

// A number in [lo, hi] (hi < 0: no upper bound) stored in an optional double of the options.
FlagSpec agentic_number(const char* name, const char* help, std::optional<double> AgenticOptions::*f,
                        double lo, double hi) {
  FlagSpec s = base(name, help, "");
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    const std::string expect = hi < 0 ? fmt::format("a number >= {}", lo) : fmt::format("a number in [{}, {}]", lo, hi);
    auto v = to_double(name, in.text, expect);
    if (!v) return tl::unexpected(v.error());
    if (!std::isfinite(*v) || *v < lo || (hi >= 0 && *v > hi))
      return usage(fmt::format("{} '{}' is invalid; expected {}", name, in.text, expect));
    c->agentic.*f = *v;
    return {};
  };
  return s;
}

// A duration in seconds stored in an optional ns count of the options.
FlagSpec agentic_seconds(const char* name, const char* help, std::optional<int64_t> AgenticOptions::*f,
                         bool positive) {
  FlagSpec s = base(name, help, "");
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_seconds(name, in.text, false);
    if (!v) return tl::unexpected(v.error());
    if (positive && *v <= 0) return usage(fmt::format("{} '{}' must be > 0 seconds", name, in.text));
    c->agentic.*f = *v;
    return {};
  };
  return s;
}

void add_wrap_pair(std::vector<FlagSpec>* out) {
  FlagSpec on = base("--allow-dataset-wrap",
                     "Agentic replay: with more --concurrency lanes than traces, lanes reuse traces (each "
                     "play cache-busted) instead of failing",
                     "");
  on.arity = FlagArity::kSwitch;
  on.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.on) c->agentic.allow_dataset_wrap = true;
    return {};
  };
  out->push_back(std::move(on));
  FlagSpec off = base("--no-allow-dataset-wrap", "Agentic replay: more lanes than traces is an error (default)", "");
  off.arity = FlagArity::kSwitch;
  off.apply = [](const FlagInput& in, C* c) -> Status {
    if (!in.on) return {};
    if (c->agentic.allow_dataset_wrap.value_or(false))
      return usage("--allow-dataset-wrap and --no-allow-dataset-wrap contradict; keep one");
    c->agentic.allow_dataset_wrap = false;
    return {};
  };
  out->push_back(std::move(off));
}

void add_scenario_flags(std::vector<FlagSpec>* out) {
  FlagSpec scen = base("--scenario",
                       "Benchmark scenario whose options are locked (inferencex-agentx-mvp: agentic replay "
                       "of weka_trace files, docs/workloads.md)",
                       "");
  scen.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    if (in.text != "inferencex-agentx-mvp")
      return usage(fmt::format("--scenario '{}' is unknown; expected inferencex-agentx-mvp", in.text));
    c->agentic.scenario = in.text;
    return {};
  };
  out->push_back(std::move(scen));
  out->push_back(agentic_switch("--unsafe-override",
                                "With --scenario: a broken lock is a warning, and the run is stamped "
                                "submission_valid=false",
                                &AgenticOptions::unsafe_override));
  out->push_back(agentic_number("--trajectory-start-min-ratio",
                                "Agentic replay: earliest start of a lane's trajectory, as a fraction of the "
                                "trace's recorded duration (or turns) (0.25)",
                                &AgenticOptions::start_min_ratio, 0, 1));
  out->push_back(agentic_number("--trajectory-start-max-ratio",
                                "Agentic replay: latest start of a lane's trajectory (fraction, 0.75)",
                                &AgenticOptions::start_max_ratio, 0, 1));
  out->push_back(agentic_switch("--burst-phase-starts",
                                "Agentic replay: every lane's warm-up and first profiling request go at the "
                                "phase start (default: spread by their recorded offsets)",
                                &AgenticOptions::burst_phase_starts));
  add_wrap_pair(out);
  out->push_back(agentic_seconds("--agentic-warmup-grace-period",
                                 "Agentic replay: how long the warm-up waits for its priming replies after the "
                                 "last one was sent (s; default: all of them)",
                                 &AgenticOptions::warmup_grace_ns, false));
  out->push_back(agentic_seconds("--agentic-cache-warmup-duration",
                                 "Agentic replay: after priming, the warm-up plays the lanes on for this long (s) "
                                 "with no delays and 1-token replies, recycling traces, to fill the server's "
                                 "prefix cache before profiling",
                                 &AgenticOptions::cache_warmup_ns, true));
  out->push_back(agentic_number("--trace-idle-gap-cap-seconds",
                                "weka_trace: compress every gap between consecutive request starts of one trace "
                                "(sub-agents included) above this many seconds down to it",
                                &AgenticOptions::trace_idle_gap_cap_s, 0, -1));
  out->push_back(agentic_number("--system-idle-gap-cap-seconds",
                                "Agentic replay: when nothing is in flight, pending turns move earlier so the "
                                "next one goes within this many seconds",
                                &AgenticOptions::system_idle_gap_cap_s, 0, -1));
  out->push_back(agentic_switch("--ignore-trace-delays",
                                "Trace inputs: drop recorded timestamps and delays (turns go back to back)",
                                &AgenticOptions::ignore_trace_delays));
}

}  // namespace

void add_agentic_flags(std::vector<FlagSpec>* out) {
  out->push_back(unexported(switch_flag(
      "--use-think-time-only",
      "weka_trace: a later turn goes its recorded think_time after the previous reply (start-to-start "
      "gap when null) instead of at its recorded time",
      &C::use_think_time_only, "")));
  out->push_back(unexported(count_flag("--max-context-length", "--max-context-length",
                                       "weka_trace: drop whole traces whose peak in + out tokens exceeds this",
                                       &C::max_context_length, 1, "")));
  add_scenario_flags(out);
}

}  // namespace servebench::config
