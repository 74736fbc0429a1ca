// Agent-trace flags (config/flag_table.h): how weka_trace sessions are replayed. Not exported
// to input_config yet (its layout is golden-tested; add their keys together with it).
#include "config/flag_kinds.h"

namespace servebench::config {

void add_agentic_flags(std::vector<FlagSpec>* out) {
  using namespace flags;  // NOLINT: the builders read as a table
  FlagSpec think = switch_flag(
      "--use-think-time-only",
      "weka_trace: a later turn goes its recorded think_time after the previous reply (start-to-start "
      "gap when null) instead of at its recorded time",
      &C::use_think_time_only, "");
  think.to_json = nullptr;
  out->push_back(std::move(think));
  {
    FlagSpec s = count_flag("--max-context-length", "--max-context-length",
                            "weka_trace: drop whole traces whose peak in + out tokens exceeds this",
                            &C::max_context_length, 1, "");
    s.to_json = nullptr;
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
