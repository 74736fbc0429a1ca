#include "dataset/synthetic_prompts.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/rng.h"

#ifndef SERVEBENCH_CORPUS_PATH
#define SERVEBENCH_CORPUS_PATH "data/corpus/mobydick.txt"
#endif

namespace servebench::dataset {
namespace {

// Word spans of the corpus (whitespace-separated), so prompts join words with single spaces.
std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

std::string join_words(const std::vector<std::string_view>& words, size_t start, size_t n) {
  std::string out;
  for (size_t k = 0; k < n; ++k) {
    if (k) out.push_back(' ');
    const auto& w = words[(start + k) % words.size()];
    out.append(w.data(), w.size());
  }
  return out;
}

int64_t draw_length(core::Rng& rng, double mean, double stddev) {
  const double v = stddev > 0 ? rng.normal(mean, stddev) : mean;
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(v)));
}

}  // namespace

std::string default_corpus_path() {
  if (const char* p = std::getenv("SERVEBENCH_CORPUS"); p && *p) return p;
  if (const char* s = std::getenv("SERVEBENCH_SOURCE_DIR"); s && *s)
    return std::string(s) + "/data/corpus/mobydick.txt";
  return SERVEBENCH_CORPUS_PATH;
}

Result<std::string> load_corpus(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("corpus '{}' cannot be read; set SERVEBENCH_CORPUS to data/corpus/mobydick.txt", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<std::vector<SyntheticPrompt>> build_synthetic_prompts(std::string_view corpus,
                                                             const tokenizer::Tokenizer& tok,
                                                             const SyntheticPromptOptions& o) {
  const auto words = split_words(corpus);
  if (words.empty()) return make_error(ErrorCode::kInvalidArgument, "the prompt corpus is empty");
  core::Rng isl_rng = core::Rng::stream(o.seed, "prompt.isl");
  core::Rng start_rng = core::Rng::stream(o.seed, "prompt.start");
  core::Rng osl_rng = core::Rng::stream(o.seed, "prompt.osl");
  std::vector<SyntheticPrompt> out;
  out.reserve(static_cast<size_t>(o.num_entries));
  for (int64_t i = 0; i < o.num_entries; ++i) {
    SyntheticPrompt p;
    p.target_input_tokens = draw_length(isl_rng, o.isl_mean_tokens, o.isl_stddev_tokens);
    if (o.osl_mean_tokens > 0) p.max_output_tokens = draw_length(osl_rng, o.osl_mean_tokens, o.osl_stddev_tokens);
    const size_t start = static_cast<size_t>(start_rng.next_below(words.size()));
    // Proportional search on the word count: converges in a few rounds for any tokenizer whose
    // tokens-per-word ratio is roughly stable; then trim so the prompt never exceeds the target.
    size_t n = static_cast<size_t>(p.target_input_tokens);
    int64_t count = static_cast<int64_t>(tok.count(join_words(words, start, n)));
    for (int round = 0; round < 6; ++round) {
      if (count == p.target_input_tokens || count == 0) break;
      const double scaled = static_cast<double>(n) * static_cast<double>(p.target_input_tokens) / count;
      const size_t next = std::max<size_t>(1, static_cast<size_t>(std::llround(scaled)));
      if (next == n) break;
      n = next;
      count = static_cast<int64_t>(tok.count(join_words(words, start, n)));
    }
    while (count > p.target_input_tokens && n > 1) {
      --n;
      count = static_cast<int64_t>(tok.count(join_words(words, start, n)));
    }
    p.text = join_words(words, start, n);
    p.input_tokens = static_cast<int64_t>(tok.count(p.text));
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace servebench::dataset
