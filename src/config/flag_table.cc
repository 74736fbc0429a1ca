#include "config/flag_table.h"

#include <fmt/format.h>

namespace servebench::config {

const std::vector<FlagSpec>& profile_flags() {
  static const std::vector<FlagSpec> kFlags = [] {
    std::vector<FlagSpec> all;
    add_config_file_flags(&all);
    add_endpoint_flags(&all);
    add_input_flags(&all);
    add_session_flags(&all);
    add_rankings_flags(&all);
    add_media_flags(&all);
    add_video_flags(&all);
    add_trace_replay_flags(&all);
    add_prompts_flags(&all);
    add_synthesis_flags(&all);
    add_load_flags(&all);
    add_output_flags(&all);
    add_live_flags(&all);
    add_agentic_flags(&all);
    add_server_metrics_flags(&all);
    add_telemetry_flags(&all);
    add_shard_flags(&all);
    add_sinks_flags(&all);
    add_parity_flags(&all);
    add_experiment_flags(&all);
    return all;
  }();
  return kFlags;
}

std::string json_value_text(const JsonValue& v) {
  struct Visitor {
    std::string operator()(std::nullptr_t) const { return ""; }
    std::string operator()(bool b) const { return b ? "true" : ""; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return fmt::format("{}", d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const std::vector<std::string>& list) const {
      return fmt::format("{}", fmt::join(list, ","));
    }
    std::string operator()(const RawJson&) const { return ""; }
  };
  return std::visit(Visitor{}, v);
}

}  // namespace servebench::config
