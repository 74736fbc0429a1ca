// How the AIPerf parity flags (config/flags_parity.cc) combine with each other and with the rest
// of the configuration; called by config::validate. Internal to the config module.
//
// Thread safety: pure.
#pragma once

#include "config/benchmark_config.h"
#include "config/flag_table.h"
#include "core/result.h"

namespace servebench::config {

// Errors are one line naming the flag and the fix.
Status validate_parity(const BenchmarkConfig& config);

// True when a flag occurrence carried anything (a switch on, a count, a value).
bool arity_given(const FlagInput& in);

}  // namespace servebench::config
