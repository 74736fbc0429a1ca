#include "dataset/synthetic_prompts.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/env.h"
#include "core/interrupt.h"
#include "core/rng.h"
#include "dataset/embedded_corpus.h"
#include "dataset/exact_prompts.h"
#include "dataset/loaders/input_file.h"

namespace servebench::dataset {

int64_t draw_length_tokens(core::Rng& rng, double mean, double stddev, double range_ratio, RangeRatioStyle style) {
  if (range_ratio >= 0) {
    int64_t lo, hi;
    if (style == RangeRatioStyle::kVllm) {
      // vLLM's window: [floor(L(1-r)), ceil(L(1+r))].
      lo = static_cast<int64_t>(std::floor(mean * (1.0 - range_ratio)));
      hi = static_cast<int64_t>(std::ceil(mean * (1.0 + range_ratio)));
    } else {
      lo = static_cast<int64_t>(mean * range_ratio);
      hi = static_cast<int64_t>(mean);
    }
    lo = std::max<int64_t>(1, lo);
    hi = std::max(lo, hi);
    return lo + static_cast<int64_t>(rng.next_below(static_cast<uint64_t>(hi - lo + 1)));
  }
  // AIPerf's sample_positive_normal_integer.
  // Clamped in double before converting: a huge stddev must not overflow the conversion.
  auto clamp = [](double v) { return static_cast<int64_t>(std::clamp(v, 1.0, kMaxLengthTokens)); };
  if (stddev <= 0) return clamp(std::round(mean));
  const double v = std::ceil(rng.normal(mean, stddev));
  return std::isnan(v) ? 1 : clamp(v);
}

std::string default_corpus_path() {
  return core::env().get_or(core::EnvVar::kServebenchCorpus, "");
}

Result<std::string> load_corpus(const std::string& path) {
  if (path.empty()) return std::string(embedded_corpus());
  SB_TRY_ASSIGN(const InputLimits limits, InputLimits::from_env(core::env()));
  return read_input_file(path, limits, "corpus file (SERVEBENCH_CORPUS)");
}

Result<std::vector<SyntheticPrompt>> build_synthetic_prompts(std::string_view corpus,
                                                             const tokenizer::Tokenizer& tok,
                                                             const SyntheticPromptOptions& o) {
  SB_TRY_ASSIGN(const ExactPromptBuilder builder, ExactPromptBuilder::create(corpus, tok));
  core::Rng isl_rng = core::Rng::stream(o.seed, "prompt.isl");
  core::Rng start_rng = core::Rng::stream(o.seed, "prompt.start");
  core::Rng osl_rng = core::Rng::stream(o.seed, "prompt.osl");
  std::vector<SyntheticPrompt> out;
  out.reserve(static_cast<size_t>(o.num_entries));
  for (int64_t i = 0; i < o.num_entries; ++i) {
    // Ctrl-C during set-up: a large --num-dataset-entries takes seconds to build.
    if (core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while building synthetic prompts");
    SyntheticPrompt p;
    p.target_input_tokens =
        draw_length_tokens(isl_rng, o.isl_mean_tokens, o.isl_stddev_tokens, o.isl_range_ratio, o.range_ratio_style);
    if (o.osl_mean_tokens > 0)
      p.max_output_tokens =
          draw_length_tokens(osl_rng, o.osl_mean_tokens, o.osl_stddev_tokens, o.osl_range_ratio, o.range_ratio_style);
    auto built = builder.build(p.target_input_tokens, start_rng);
    p.text = std::move(built.text);
    p.input_tokens = built.tokens;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace servebench::dataset
