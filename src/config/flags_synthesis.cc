// Trace re-synthesis flags (config/flag_table.h; AIPerf's Synthesis group): how a hash-id trace
// (mooncake_trace, bailian_trace, ...) is reshaped before its prompts are built
// (dataset/trace_synthesis.h). Defaults leave the trace as recorded.
//   --synthesis-speedup-ratio            timestamps divided by it (> 0)
//   --synthesis-prefix-len-multiplier    shared-prefix lengths scaled (>= 0)
//   --synthesis-prefix-root-multiplier   conversations spread over N independent prefix trees
//   --synthesis-prompt-len-multiplier    unique (non-shared) prompt lengths scaled (>= 0)
//   --synthesis-output-len-multiplier    output lengths scaled (>= 0)
//   --synthesis-max-isl                  rows whose recorded input_length exceeds it are dropped
//   --synthesis-max-osl                  output lengths capped at it
#include <fmt/format.h>

#include "config/flag_kinds.h"
#include "config/prompt_validate.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

const char* kKey = "/input/synthesis/";

std::string key(const char* leaf) { return std::string(kKey) + leaf; }

}  // namespace

void add_synthesis_flags(std::vector<FlagSpec>* out) {
  out->push_back(double_flag("--synthesis-speedup-ratio", "--synthesis-speedup-ratio",
                             "Trace timestamps divided by this (2 = twice as fast)",
                             &C::synthesis_speedup_ratio, "a ratio > 0", Bound::kPositive,
                             key("speedup_ratio")));
  out->push_back(double_flag("--synthesis-prefix-len-multiplier",
                             "--synthesis-prefix-len-multiplier",
                             "Scale the trace's shared hash-id prefixes (stay shared)",
                             &C::synthesis_prefix_len_multiplier, "a multiplier >= 0",
                             Bound::kNonNegative, key("prefix_len_multiplier")));
  out->push_back(count_flag("--synthesis-prefix-root-multiplier",
                            "--synthesis-prefix-root-multiplier",
                            "Spread conversations over N independent copies of the prefix tree",
                            &C::synthesis_prefix_root_multiplier, 1, key("prefix_root_multiplier")));
  out->push_back(double_flag("--synthesis-prompt-len-multiplier",
                             "--synthesis-prompt-len-multiplier",
                             "Scale the unique (not shared) part of each trace prompt",
                             &C::synthesis_prompt_len_multiplier, "a multiplier >= 0",
                             Bound::kNonNegative, key("prompt_len_multiplier")));
  out->push_back(double_flag("--synthesis-output-len-multiplier",
                             "--synthesis-output-len-multiplier",
                             "Scale the trace's output lengths", &C::synthesis_output_len_multiplier,
                             "a multiplier >= 0", Bound::kNonNegative,
                             key("output_len_multiplier")));
  out->push_back(count_flag("--synthesis-max-isl", "--synthesis-max-isl",
                            "Drop trace rows whose input_length exceeds this (tokens)",
                            &C::synthesis_max_isl, 1, key("max_isl")));
  out->push_back(count_flag("--synthesis-max-osl", "--synthesis-max-osl",
                            "Cap trace output lengths at this (tokens)", &C::synthesis_max_osl, 1,
                            key("max_osl")));
}

bool is_hash_id_trace_format(std::string_view f) {
  return f == "mooncake_trace" || f == "bailian_trace" || f == "burst_gpt_trace" ||
         f == "sagemaker_data_capture" || f == "weka_trace";
}

Status check_corpus_for_format(const BenchmarkConfig& c, std::string_view format_name) {
  if (c.prompt_corpus != "random" || !is_hash_id_trace_format(format_name)) return {};
  return usage(fmt::format("--prompt-corpus random does not apply to {} input (its prompts are cut from a text "
                           "corpus by hash_id); use --prompt-corpus sonnet or coding, or a synthetic workload",
                           format_name));
}

Status validate_prompt_options(const BenchmarkConfig& c) {
  auto bad = [](const char* m) -> Status { return usage(m); };
  if (!c.input_file.empty() && !c.custom_dataset_type.empty())
    if (auto st = check_corpus_for_format(c, c.custom_dataset_type); !st) return st;
  if (c.synthesis_given() && c.input_file.empty())
    return bad("--synthesis-* flags reshape a trace file; add --input-file with a trace or drop them");
  if (!c.system_prompt.empty() && c.shared_system_prompt_length > 0)
    return bad("--system-prompt and --shared-system-prompt-length both set the system prompt; keep one");
  if (!c.system_prompt.empty() && (c.prefix_prompt_pool_size > 0 || c.prefix_prompt_length > 0))
    return bad("--system-prompt does not combine with --prefix-prompt-pool-size/--prefix-prompt-length; "
               "keep one");
  if (c.random_range_ratio_given) {
    if (!c.sequence_distribution.empty())
      return bad("--random-range-ratio and --sequence-distribution both set the lengths; keep one");
    if (c.osl_mean_tokens <= 0)
      return bad("--random-range-ratio needs --osl (and --isl): the window is around both means");
  }
  return {};
}

}  // namespace servebench::config
