// Command-line parsing for `servebench profile`: AIPerf's flag names and their GenAI-Perf
// aliases, mapped onto BenchmarkConfig. CLI11 stays inside cli_options.cc.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "core/result.h"

namespace servebench::config {

struct ParsedArgs {
  BenchmarkConfig config;
  bool help = false;       // --help was given: print help_text to stdout, exit 0
  std::string help_text;
};

// Parses argv (argv[0] is the subcommand name) and validates the result. Any error is one line
// naming the flag and the fix, with ErrorCode::kInvalidArgument.
Result<ParsedArgs> parse_profile_args(int argc, const char* const* argv);

// The command line as one string with secrets (--api-key values, Authorization / api-key
// headers) replaced by "<redacted>".
std::string redacted_command_line(int argc, const char* const* argv);

// `--extra-inputs` entries ("key:value" or a JSON object) merged into one JSON object text.
// true/false/null/numbers become JSON values; other values stay strings.
Result<std::string> merge_extra_inputs(const std::vector<std::string>& entries);

// Normalizes a base URL: prepends http:// when no scheme is given, strips a trailing '/'.
Result<std::string> normalize_url(const std::string& url);

}  // namespace servebench::config
