// The table of `servebench profile` flags: each flag is declared once, here and in the
// flags_*.cc files, with its CLI spelling (name and aliases), help, default, how its text lands
// in BenchmarkConfig (with the error naming the flag), and its key in input_config. The parser
// (cli_options.cc), --help and config::to_json all read this table; nothing else names a flag.
//
// Defaults live in BenchmarkConfig's member initializers; --help shows them by exporting a
// default-constructed config through the flag's `to_json` (or `default_text` where the default
// is a rule, not a value).
//
// Thread safety: the table is built once (function-local static) and read-only afterwards.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "config/benchmark_config.h"
#include "core/result.h"

namespace servebench::config {

enum class FlagArity {
  kSwitch,   // --streaming
  kCounter,  // -v -v, -vv
  kValue,    // --concurrency 8 (one value)
  kList,     // -H a -H b (repeatable; `delimiter` also splits each value)
};

// What the user typed for one flag.
struct FlagInput {
  std::string text;                // kValue: the value
  std::vector<std::string> texts;  // kList: every value, in order
  int count = 0;                   // occurrences (the value of a kCounter)
  bool on = false;                 // kSwitch: the flag's boolean value
};

// A JSON document, already serialized (objects such as --extra-inputs' merged object).
struct RawJson {
  std::string text;
};

// One input_config value, kept free of the JSON library.
using JsonValue = std::variant<std::nullptr_t, bool, int64_t, double, std::string,
                               std::vector<std::string>, RawJson>;

struct FlagSpec {
  std::string names;  // CLI11 spelling: "-m,--model,--model-names"
  std::string help;
  FlagArity arity = FlagArity::kValue;
  char delimiter = 0;  // kList only: split values at this character too (0 = no)
  // kList only: each occurrence takes exactly one argument, kept whole (CLI11 would otherwise
  // read "[1,2]" as two values, and the error would name neither what was typed).
  bool one_value_per_use = false;
  // kList only: the flag may also be given with no value at all ("--gpu-telemetry").
  bool value_optional = false;
  // kValue only: a comma list ("1,2,4") makes a sweep, one run per value (experiment/sweep.h);
  // other flags keep their single-value error.
  bool sweepable = false;
  std::string sweep_name;  // sweepable flags: the axis name in folders and tables ("concurrency")
  // kSwitch only: the flag also takes a --no- form ("--no-streaming") that turns it off (apply()
  // sees on == false; the last of --x / --no-x wins). profile_flags() derives it for every long
  // name that does not start with --no- and is not declared by another flag (an explicit pair
  // such as --fixed-schedule / --no-fixed-schedule keeps its own rules).
  bool negatable = true;
  std::vector<std::string> negations;  // the derived spellings, filled by profile_flags()
  // Shapes a loop of runs (flags_experiment.cc: trials, sweep order, convergence), not one
  // run: left out of the single-run command of a sweep cell (experiment/cell_command.h).
  bool experiment_loop = false;
  std::string default_text;  // shown in --help when the default is a rule ("cores-1")
  // JSON pointer of this flag's value in input_config ("/loadgen/concurrency"); empty when the
  // flag is exported through another flag's key (named in a comment at its declaration).
  std::string json_key;
  // Lands the typed value in the config; called only when the flag was given. Errors are one
  // line naming the flag and the expected form.
  std::function<Status(const FlagInput&, BenchmarkConfig*)> apply;
  // The exported value (required when json_key is set).
  std::function<JsonValue(const BenchmarkConfig&)> to_json;
};

// Every profile flag, in --help order.
const std::vector<FlagSpec>& profile_flags();

// Every spelling a user may type for `f`: its names ("-m", "--model"), then its negations.
std::vector<std::string> flag_spellings(const FlagSpec& f);
// The names as CLI11 reads them: the negations marked "!--no-x" (they store false).
std::string cli_names(const FlagSpec& f);

// The groups, one file each (flags_endpoint.cc, flags_input.cc, flags_load.cc, flags_output.cc).
void add_endpoint_flags(std::vector<FlagSpec>* out);
void add_input_flags(std::vector<FlagSpec>* out);
void add_session_flags(std::vector<FlagSpec>* out);
void add_load_flags(std::vector<FlagSpec>* out);
void add_output_flags(std::vector<FlagSpec>* out);
void add_live_flags(std::vector<FlagSpec>* out);  // flags_live.cc
void add_agentic_flags(std::vector<FlagSpec>* out);  // flags_agentic.cc
void add_server_metrics_flags(std::vector<FlagSpec>* out);
void add_telemetry_flags(std::vector<FlagSpec>* out);  // flags_telemetry.cc
void add_rankings_flags(std::vector<FlagSpec>* out);  // flags_rankings.cc
void add_media_flags(std::vector<FlagSpec>* out);     // flags_media.cc
void add_video_flags(std::vector<FlagSpec>* out);     // flags_video.cc
void add_trace_replay_flags(std::vector<FlagSpec>* out);  // flags_trace_replay.cc
void add_prompts_flags(std::vector<FlagSpec>* out);  // flags_prompts.cc
void add_synthesis_flags(std::vector<FlagSpec>* out);  // flags_synthesis.cc
void add_config_file_flags(std::vector<FlagSpec>* out);  // flags_config.cc
void add_shard_flags(std::vector<FlagSpec>* out);     // flags_shard.cc

// --start-at's text (Unix seconds, fractional allowed, or ISO 8601 UTC
// "2026-01-02T03:04:05[.fff]Z") to Unix ns; an error names the flag and both forms.
Result<int64_t> parse_start_at(const std::string& text);
void add_sinks_flags(std::vector<FlagSpec>* out);  // flags_sinks.cc
void add_parity_flags(std::vector<FlagSpec>* out);    // flags_parity.cc
void add_experiment_flags(std::vector<FlagSpec>* out);  // flags_experiment.cc
void add_search_flags(std::vector<FlagSpec>* out);      // flags_search.cc
void add_variant_flag(std::vector<FlagSpec>* out);      // flags_variant.cc

// "550", "chat", "21600", "" for null / false / empty (no default worth showing).
std::string json_value_text(const JsonValue& v);

}  // namespace servebench::config
