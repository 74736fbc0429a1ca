// Synthetic prompts for `servebench profile` without an input file: --num-dataset-entries
// prompts (default 100, reused round robin as AIPerf does) cut from the vendored Moby Dick
// corpus, lengths drawn from --isl / --isl-stddev and max output tokens from --osl / --osl-stddev
// on named core::Rng streams ("prompt.isl", "prompt.start", "prompt.osl"), and token-counted
// with the run's tokenizer before t0.
//
// Every prompt encodes to exactly its drawn length (ExactPromptBuilder), lengths drawn as
// AIPerf does: max(1, round(mean)) without spread, else max(1, ceil(normal(mean, stddev))).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/rng.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

// Range-ratio lengths (an alternative to mean ± stddev), uniform integers:
//   kVllm   (vLLM bench --random-range-ratio):   [floor(L·(1−r)), ceil(L·(1+r))], 0 <= r < 1
//   kSglang (SGLang bench --random-range-ratio): [max(int(L·r), 1), L],        0 <  r <= 1
enum class RangeRatioStyle { kVllm, kSglang };

// Draws one length in tokens (>= 1): AIPerf's rule without a range ratio (max(1, round(mean))
// when stddev is 0, else max(1, ceil(normal(mean, stddev)))), the uniform range with one.
// Longest length (tokens) any option may ask for: beyond every model's context, and far inside
// int64 so that draws convert without overflow.
inline constexpr double kMaxLengthTokens = 100'000'000;
// Draws are clamped to [1, kMaxLengthTokens].
int64_t draw_length_tokens(core::Rng& rng, double mean, double stddev, double range_ratio,
                           RangeRatioStyle style);

struct SyntheticPromptOptions {
  int64_t num_entries = 100;
  double isl_mean_tokens = 550;
  double isl_stddev_tokens = 0;
  double osl_mean_tokens = -1;  // <= 0: no max_tokens
  double osl_stddev_tokens = 0;
  double isl_range_ratio = -1;  // < 0: none
  double osl_range_ratio = -1;
  RangeRatioStyle range_ratio_style = RangeRatioStyle::kVllm;
  uint64_t seed = 0;
};

struct SyntheticPrompt {
  std::string text;
  int64_t input_tokens = 0;         // counted with the tokenizer
  int64_t target_input_tokens = 0;  // drawn length
  int64_t max_output_tokens = -1;   // -1 = let the server decide
};

// The synthetic-prompt corpus: the file named by $SERVEBENCH_CORPUS when set, else the vendored
// corpus embedded in the binary (embedded_corpus.h; no file is read). default_corpus_path() is
// that variable's value, "" meaning the embedded corpus; load_corpus("") returns the embedded
// corpus, and any other path is read as an input file (loaders/input_file.h: a regular file
// within SERVEBENCH_INPUT_MAX_BYTES; errors name SERVEBENCH_CORPUS).
std::string default_corpus_path();
Result<std::string> load_corpus(const std::string& path);

Result<std::vector<SyntheticPrompt>> build_synthetic_prompts(std::string_view corpus,
                                                             const tokenizer::Tokenizer& tok,
                                                             const SyntheticPromptOptions& options);

}  // namespace servebench::dataset
