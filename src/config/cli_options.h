// Command-line parsing for `servebench profile`: AIPerf's flag names and their GenAI-Perf
// aliases, mapped onto BenchmarkConfig through the flag table (config/flag_table.h). CLI11 stays
// inside cli_options.cc.
//
// Thread safety: parse_profile_args registers the command's secret values with core::secrets
// (process-wide, see config/redaction.h); call it once at start-up. The rest is pure.
#pragma once

#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "config/redaction.h"
#include "config/url.h"
#include "core/result.h"

namespace servebench::config {

// A sweepable flag given a comma list ("--concurrency 1,2,4"): one value per sweep cell.
struct SweepAxis {
  size_t flag_index = 0;             // into profile_flags()
  std::string name;                  // FlagSpec::sweep_name ("concurrency")
  std::vector<std::string> values;   // as typed, in order; each one converts without error
};

struct ParsedArgs {
  // With sweep axes: the config of the first value of every axis (validated).
  BenchmarkConfig config;
  std::vector<SweepAxis> sweep;  // empty for a single run
  // The argv as parsed ("profile", then the flags; a YAML file already expanded). Holds
  // secrets: echo it only through redacted_command_line.
  std::vector<std::string> argv;
  bool help = false;  // --help was given: print help_text to stdout, exit 0
  std::string help_text;
};

// Parses argv (argv[0] is the subcommand name) and validates the result. Any error is one line
// naming the flag and the fix, with ErrorCode::kInvalidArgument, and never shows a secret.
Result<ParsedArgs> parse_profile_args(int argc, const char* const* argv);

// `--extra-inputs` entries ("key:value" or a JSON object) merged into one JSON object text.
// true/false/null/numbers become JSON values; other values stay strings.
Result<std::string> merge_extra_inputs(const std::vector<std::string>& entries);

}  // namespace servebench::config
