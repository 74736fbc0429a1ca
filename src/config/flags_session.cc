// Multi-turn session, shared-prompt and KV-cache-reset flags (config/flag_table.h).
#include <fmt/format.h>

#include "config/flag_kinds.h"
#include "core/json_text.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

JsonValue positive_or_null(int64_t v) { return v > 0 ? JsonValue(v) : JsonValue(nullptr); }

// The reset object ({path, timeout_seconds}) or false; one key for the three reset flags.
JsonValue reset_json(const C& c) {
  if (!c.reset_kv_cache) return false;
  std::string text = R"({"path":)";
  core::append_json_string(c.reset_kv_cache_path, &text);
  std::string seconds = fmt::format("{}", ns_to_s(c.reset_kv_cache_timeout_ns));
  if (seconds.find_first_not_of("-0123456789") == std::string::npos)
    seconds += ".0";  // a double, as before
  return RawJson{text + R"(,"timeout_seconds":)" + seconds + "}"};
}

}  // namespace

void add_session_flags(std::vector<FlagSpec>* out) {
  out->push_back(sweepable("conversation_num", count_flag("--num-sessions,--num-conversations,--conversation-num",
                            "--num-sessions", "Sessions to run (instead of --request-count)",
                            &C::num_sessions, 1, "/input/conversation/num")));
  struct Turn {
    const char* names;
    const char* flag;
    const char* help;
    double C::*field;
    const char* key;
  };
  for (const Turn& t : {
           Turn{"--session-turns-mean,--conversation-turn-mean", "--session-turns-mean",
                "Mean turns per session", &C::session_turns_mean, "/input/conversation/turn/mean"},
           Turn{"--session-turns-stddev,--conversation-turn-stddev", "--session-turns-stddev",
                "Turns per session stddev", &C::session_turns_stddev,
                "/input/conversation/turn/stddev"},
           Turn{"--session-turn-delay-mean,--conversation-turn-delay-mean",
                "--session-turn-delay-mean", "Mean delay before turns 2..n (ms)",
                &C::session_turn_delay_mean_ms, "/input/conversation/turn/delay/mean"},
           Turn{"--session-turn-delay-stddev,--conversation-turn-delay-stddev",
                "--session-turn-delay-stddev", "Turn delay stddev (ms)",
                &C::session_turn_delay_stddev_ms, "/input/conversation/turn/delay/stddev"},
           Turn{"--session-delay-ratio,--conversation-turn-delay-ratio", "--session-delay-ratio",
                "Multiplier on every turn delay", &C::session_delay_ratio,
                "/input/conversation/turn/delay/ratio"},
       }) {
    out->push_back(
        double_flag(t.names, t.flag, t.help, t.field, "a number >= 0", Bound::kNonNegative, t.key));
  }
  out->push_back(
      count_flag("--prefix-prompt-pool-size,--prompt-prefix-pool-size,--num-prefix-prompts",
                 "--prefix-prompt-pool-size", "Shared prefixes drawn for first turns",
                 &C::prefix_prompt_pool_size, 0, "/input/prompt/prefix_prompt/pool_size"));
  out->push_back(count_flag("--prefix-prompt-length,--prompt-prefix-length",
                            "--prefix-prompt-length", "Tokens per shared prefix",
                            &C::prefix_prompt_length, 0, "/input/prompt/prefix_prompt/length"));
  {
    FlagSpec s =
        count_flag("--shared-system-prompt-length", "--shared-system-prompt-length",
                   "One system prompt (tokens) for every session", &C::shared_system_prompt_length,
                   0, "/input/prompt/shared_system_prompt_length");
    s.to_json = [](const C& c) { return positive_or_null(c.shared_system_prompt_length); };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s =
        count_flag("--user-context-prompt-length", "--user-context-prompt-length",
                   "Per-session user context message (tokens)", &C::user_context_prompt_length, 0,
                   "/input/prompt/user_context_prompt_length");
    s.to_json = [](const C& c) { return positive_or_null(c.user_context_prompt_length); };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = string_flag("--session-header", "Header carrying the session id",
                             &C::session_header, false, "/endpoint/session_header");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty() || in.text.find_first_of(": \t\r\n") != std::string::npos)
        return usage(fmt::format(
            "--session-header '{}' is not a header name; give just the name, e.g. X-Session-ID",
            in.text));
      c->session_header = in.text;
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(choice_flag<CacheBust>(
      "--cache-bust", "--cache-bust",
      "Per-session marker: none, system_prefix, system_suffix, first_turn_prefix, "
      "first_turn_suffix",
      &C::cache_bust,
      {{"none", CacheBust::kNone},
       {"system_prefix", CacheBust::kSystemPrefix},
       {"system_suffix", CacheBust::kSystemSuffix},
       {"first_turn_prefix", CacheBust::kFirstTurnPrefix},
       {"first_turn_suffix", CacheBust::kFirstTurnSuffix}},
      "none, system_prefix, system_suffix, first_turn_prefix or first_turn_suffix", true,
      "/input/cache_bust"));
  // KV-cache reset: the path and timeout flags imply --reset-kv-cache and share its key.
  {
    FlagSpec s =
        base("--reset-kv-cache", "POST the server's prefix-cache reset path before profiling",
             "/endpoint/reset_kv_cache");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.on) c->reset_kv_cache = true;
      return {};
    };
    s.to_json = reset_json;
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--reset-kv-cache-path", "Reset path", "");
    s.default_text = C{}.reset_kv_cache_path;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      c->reset_kv_cache = true;
      c->reset_kv_cache_path = in.text;
      if (c->reset_kv_cache_path.front() != '/')
        c->reset_kv_cache_path.insert(c->reset_kv_cache_path.begin(), '/');
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--reset-kv-cache-timeout-seconds", "Reset request timeout", "");
    s.default_text = fmt::format("{}", ns_to_s(C{}.reset_kv_cache_timeout_ns));
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      auto v = to_seconds("--reset-kv-cache-timeout-seconds", in.text, false);
      if (!v) return tl::unexpected(v.error());
      if (*v <= 0) return usage("--reset-kv-cache-timeout-seconds must be > 0");
      c->reset_kv_cache = true;
      c->reset_kv_cache_timeout_ns = *v;
      return {};
    };
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
