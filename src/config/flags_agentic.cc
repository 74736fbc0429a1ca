// Agent-trace flags (config/flag_table.h): how weka_trace sessions are replayed.
#include "config/flag_kinds.h"

namespace servebench::config {

void add_agentic_flags(std::vector<FlagSpec>* out) {
  using namespace flags;  // NOLINT: the builders read as a table
  out->push_back(switch_flag(
      "--use-think-time-only",
      "weka_trace: a later turn goes its recorded think_time after the previous reply (start-to-start "
      "gap when null) instead of at its recorded time",
      &C::use_think_time_only, "/input/use_think_time_only"));
  {
    FlagSpec s = count_flag("--max-context-length", "--max-context-length",
                            "weka_trace: drop whole traces whose peak in + out tokens exceeds this",
                            &C::max_context_length, 1, "/input/max_context_length");
    s.to_json = [](const C& c) -> JsonValue {
      if (c.max_context_length > 0) return c.max_context_length;
      return nullptr;
    };
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
