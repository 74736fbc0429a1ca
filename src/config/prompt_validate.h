// How the prompt and trace-synthesis flags (flags_prompts.cc, flags_synthesis.cc) combine with
// each other and with the rest of the configuration; called by config::validate. Internal to the
// config module, except check_corpus_for_format, which the run library also calls once an input
// file's format has been detected.
//
// Thread safety: pure.
#pragma once

#include <string_view>

#include "config/benchmark_config.h"
#include "core/result.h"

namespace servebench::config {

// Errors are one line naming the flag and the fix.
Status validate_prompt_options(const BenchmarkConfig& config);

// AIPerf's hash-id trace formats (FileDataset._HASH_ID_TRACE_FORMATS: mooncake_trace,
// bailian_trace, burst_gpt_trace, sagemaker_data_capture, weka_trace): their prompts are cut from
// a text corpus block by hash_id.
bool is_hash_id_trace_format(std::string_view format_name);
// A usage error when --prompt-corpus random meets such a format (there is no corpus to cut
// blocks from; AIPerf's _validate_random_corpus_incompatible_with_trace); ok otherwise.
Status check_corpus_for_format(const BenchmarkConfig& config, std::string_view format_name);

}  // namespace servebench::config
