// Trace replay flags (config/flag_table.h): how a recorded trace (baseten_trace) is replayed —
// open or closed loop, speed-up, session sampling, delay and idle-gap caps, KV hints and
// min_tokens in the request bodies. AIPerf's names and semantics.
#include <fmt/format.h>

#include <cmath>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

// --X sets the field true, --no-X false; the two on one command line contradict (--no-X runs
// after --X, in table order). --no-X is exported through --X's key.
void add_switch_pair(std::vector<FlagSpec>* out, const char* on, const char* off,
                     const char* help_on, const char* help_off, std::optional<bool> C::*f,
                     const char* key) {
  FlagSpec a = base(on, help_on, key);
  a.arity = FlagArity::kSwitch;
  a.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.on) c->*f = true;
    return {};
  };
  a.to_json = [f](const C& c) -> JsonValue { return (c.*f).value_or(true); };
  out->push_back(std::move(a));
  FlagSpec b = base(off, help_off, "");
  b.arity = FlagArity::kSwitch;
  b.apply = [=, on_name = std::string(on), off_name = std::string(off)](const FlagInput& in,
                                                                        C* c) -> Status {
    if (!in.on) return {};
    if ((c->*f).value_or(false))
      return usage(fmt::format("{} and {} contradict; keep one", on_name, off_name));
    c->*f = false;
    return {};
  };
  out->push_back(std::move(b));
}

// A number of seconds > 0, kept as an optional double.
FlagSpec positive_seconds(const char* name, const char* help, std::optional<double> C::*f,
                          const char* key) {
  FlagSpec s = base(name, help, key);
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_double(name, in.text, "a number of seconds > 0");
    if (!v) return tl::unexpected(v.error());
    if (!(*v > 0) || !std::isfinite(*v))
      return usage(fmt::format("{} '{}' is invalid; expected a number of seconds > 0", name,
                               in.text));
    c->*f = *v;
    return {};
  };
  s.to_json = field_json(f);
  return s;
}

}  // namespace

void add_trace_replay_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--trace-session-sample-ratio",
                      "Keep this fraction of a trace's sessions, in (0, 1] (baseten_trace)",
                      "/input/trace_session_sample_ratio");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      auto v = to_double("--trace-session-sample-ratio", in.text, "a number in (0, 1]");
      if (!v) return tl::unexpected(v.error());
      if (!(*v > 0 && *v <= 1))
        return usage(fmt::format(
            "--trace-session-sample-ratio '{}' is invalid; expected a number in (0, 1]", in.text));
      c->trace_session_sample_ratio = *v;
      return {};
    };
    s.to_json = field_json(&C::trace_session_sample_ratio);
    out->push_back(std::move(s));
  }
  out->push_back(positive_seconds("--inter-turn-delay-cap-seconds",
                                  "Clamp closed-loop delays between a session's turns (s)",
                                  &C::inter_turn_delay_cap_s, "/input/inter_turn_delay_cap_seconds"));
  out->push_back(positive_seconds("--max-idle-gap-cap-seconds",
                                  "Shrink every idle gap of the replay schedule to at most this (s)",
                                  &C::max_idle_gap_cap_s, "/input/max_idle_gap_cap_seconds"));
  out->push_back(double_flag("--replay-speedup", "--replay-speedup",
                             "Divide trace timestamps and delays by this factor",
                             &C::replay_speedup, "a number > 0", Bound::kPositive,
                             "/input/replay_speedup"));
  add_switch_pair(out, "--open-loop-replay", "--no-open-loop-replay",
                  "Replay rows at their recorded times (default)",
                  "Closed loop: later turns wait for the previous reply, then the recorded "
                  "think time",
                  &C::open_loop_replay, "/input/open_loop_replay");
  out->push_back(switch_flag("--open-loop-strict",
                             "Every row fires at its recorded time as its own session",
                             &C::open_loop_strict, "/input/open_loop_strict"));
  out->push_back(switch_flag("--omit-kv-hints", "Send no hash_ids/block_size in request bodies",
                             &C::omit_kv_hints, "/input/omit_kv_hints"));
  add_switch_pair(out, "--force-min-tokens", "--no-force-min-tokens",
                  "Send min_tokens = max_tokens for trace rows (default)",
                  "Send no min_tokens for trace rows", &C::force_min_tokens,
                  "/input/force_min_tokens");
}

}  // namespace servebench::config
