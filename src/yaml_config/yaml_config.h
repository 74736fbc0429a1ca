// YAML configuration files (AIPerf's layout, `schemaVersion: "2.0"`) turned into the equivalent
// `servebench profile` flags. The file is the base; flags typed on the command line override it.
//
// Layout: envelope keys schemaVersion, random_seed, variables, sweep, multi_run, plot, and the
// `benchmark:` body (model/models, endpoint, dataset/datasets, phases or load, slos, artifacts,
// gpu_telemetry, server_metrics, tokenizer). snake_case and camelCase keys are both accepted.
// Scalars may use ${VAR}, ${VAR:default} (environment first, then `variables:`) and {{ name }}
// (a `variables:` entry). Errors are one line "FILE:LINE: ..." (unknown keys with a "did you
// mean" hint, type errors), ErrorCode::kInvalidArgument.
//
// Thread safety: pure functions (they read the environment).
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::yaml_config {

// One flag produced from the file: "--concurrency" "8". `value` is empty for switches.
struct FlagArg {
  std::string flag;
  std::string value;
  bool has_value = true;
  std::string origin;  // "FILE:LINE" of the YAML key that produced it
};

struct LoadedConfig {
  std::vector<FlagArg> args;
};

// Loads and maps a file. `path` is named in every error.
Result<LoadedConfig> load_file(const std::string& path);
// The same for YAML text (tests, templates); `name` stands for the file name in errors.
Result<LoadedConfig> load_text(const std::string& text, const std::string& name);

// Flags as argv words, in order.
std::vector<std::string> to_argv(const std::vector<FlagArg>& args);

// The profile command line with -f/--config FILE expanded: argv[0] (the subcommand), then the
// file's flags that the command line does not set itself, then the command line without
// -f FILE. Returns argv unchanged when there is no -f/--config. `args_out` (optional) receives
// the file flags that were kept (to name FILE:LINE in later errors).
Result<std::vector<std::string>> expand_profile_argv(int argc, const char* const* argv,
                                                     std::vector<FlagArg>* args_out = nullptr);

// profile_config.yaml text for a run's flags (argv without the subcommand): the envelope key
// servebench_flags lists them word by word; secrets become ${OPENAI_API_KEY},
// ${SERVEBENCH_HEADER_<NAME>} and ${SERVEBENCH_URL} placeholders.
std::string effective_config_yaml(const std::vector<std::string>& words);
// Writes DIR/profile_config.yaml; false on a write error.
bool write_effective_config(const std::string& dir, const std::vector<std::string>& words);

// "30s", "5m", "1h", "250ms", "1.5" (seconds) → seconds; "inf" stays infinite.
Result<double> parse_duration_s(const std::string& text);

// Edit distance, for "did you mean" hints.
size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace servebench::yaml_config
