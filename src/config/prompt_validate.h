// How the prompt and trace-synthesis flags (flags_prompts.cc, flags_synthesis.cc) combine with
// each other and with the rest of the configuration; called by config::validate. Internal to the
// config module.
//
// Thread safety: pure.
#pragma once

#include "config/benchmark_config.h"
#include "core/result.h"

namespace servebench::config {

// Errors are one line naming the flag and the fix.
Status validate_prompt_options(const BenchmarkConfig& config);

}  // namespace servebench::config
