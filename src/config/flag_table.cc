#include "config/flag_table.h"

#include <fmt/format.h>

#include <set>

namespace servebench::config {
namespace {

std::vector<std::string> split_names(const std::string& names) {
  std::vector<std::string> out;
  for (size_t at = 0;;) {
    const size_t comma = names.find(',', at);
    out.push_back(names.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) return out;
    at = comma + 1;
  }
}

// Gives every negatable switch its --no-<name> forms (FlagSpec::negatable).
void derive_negations(std::vector<FlagSpec>* flags) {
  std::set<std::string> declared;
  for (const auto& f : *flags)
    for (auto& n : split_names(f.names)) declared.insert(std::move(n));
  for (auto& f : *flags) {
    if (f.arity != FlagArity::kSwitch || !f.negatable) continue;
    for (const auto& n : split_names(f.names)) {
      if (n.rfind("--", 0) != 0 || n.rfind("--no-", 0) == 0) continue;
      std::string neg = "--no-" + n.substr(2);
      if (declared.count(neg)) continue;
      declared.insert(neg);
      f.negations.push_back(std::move(neg));
    }
  }
}

}  // namespace

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
    derive_negations(&all);
    return all;
  }();
  return kFlags;
}

std::vector<std::string> flag_spellings(const FlagSpec& f) {
  std::vector<std::string> out = split_names(f.names);
  out.insert(out.end(), f.negations.begin(), f.negations.end());
  return out;
}

std::string cli_names(const FlagSpec& f) {
  std::string out = f.names;
  for (const auto& n : f.negations) out += ",!" + n;
  return out;
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
