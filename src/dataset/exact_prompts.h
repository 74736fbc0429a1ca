// ExactPromptBuilder: synthetic prompts that encode to exactly the requested number of tokens,
// by construction.
//
// The corpus is split into whitespace-separated pieces and every distinct piece is counted once
// in two forms: bare (when it opens a prompt) and space-prefixed (when it follows another
// piece). A prompt is a run of pieces joined by single spaces, taken from a seeded start
// position; a piece that would overshoot the target is skipped, so the run lands exactly on the
// target. This is exact whenever the tokenizer's count is additive over space-joined pieces,
// which holds for every byte-level BPE tokenizer (GPT-2, Llama-3, Qwen, o200k: the pre-tokenizer
// always starts a new pre-token at a space followed by a non-space) and in practice for
// SentencePiece vocabularies (no tokens span an inner "▁"). The builder checks that
// assumption on a sample of prompts with a full encode; if any is off, it switches to verifying
// every prompt and repairs only the prompt's tail (never re-encodes in an open loop).
//
// Counting every distinct piece with a real tokenizer costs 100-350 ms. For the vendored corpus
// and the builtin tokenizer the counts are embedded in the binary: corpus_counts_tool counts them
// at build time with this code (make_embedded_count_table), and create() uses them when the
// tokenizer's fingerprint() and the corpus bytes are the ones they were made for. For other
// tokenizers the per-word counts are cached on disk (see ExactPromptOptions), keyed by the corpus
// bytes, the tokenizer's fingerprint(), this binary and the cache format. Embedded counts and a
// cache hit yield the same builder as a cold count; the calibration check runs on every path, and
// counts it refutes are not used. Any cache problem (unreadable, truncated, corrupt, unwritable
// folder) falls back to counting, with a debug log line and no error.
//
// --prompt-corpus random has no corpus: random_vocabulary() (and for_corpus("random", ...)) makes
// a builder whose build() hands over to RandomTokenPrompts (random_prompts.h), so every caller of
// build() serves random-token prompts unchanged.
//
// Thread safety: const after construction; build() may be called from several threads with
// their own Rng. create() may run in several processes at once: cache files are written to a
// temporary name and renamed into place.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/rng.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

struct ExactPromptOptions {
  // Folder of the piece-count cache; "" means default_count_cache_dir().
  std::string count_cache_dir;
  bool use_count_cache = true;
  // Use the counts embedded at build time when they fit (corpus and tokenizer fingerprint).
  bool use_embedded_counts = true;
};

class RandomTokenPrompts;

class ExactPromptBuilder {
 public:
  // The --prompt-corpus name whose prompts are random vocabulary tokens, not corpus text.
  static constexpr std::string_view kRandomCorpus = "random";

  // Counts the corpus pieces with `tok` (which must outlive the builder), or takes the counts
  // embedded in the binary, or reads them from the cache when `tok` has a fingerprint.
  static Result<ExactPromptBuilder> create(std::string_view corpus, const tokenizer::Tokenizer& tok,
                                           const ExactPromptOptions& options = {});

  // Prompts of random vocabulary tokens (random_prompts.h); `tok` must outlive the builder.
  static Result<ExactPromptBuilder> random_vocabulary(const tokenizer::Tokenizer& tok);
  // The builder for --prompt-corpus `corpus_name`: random_vocabulary() for "random", else
  // create(corpus_text) (corpus_text: corpus_for(corpus_name), or a corpus the caller chose).
  static Result<ExactPromptBuilder> for_corpus(std::string_view corpus_name, std::string_view corpus_text,
                                               const tokenizer::Tokenizer& tok, const ExactPromptOptions& options = {});

  // $SERVEBENCH_CACHE_DIR/corpus-counts, else $XDG_CACHE_HOME/servebench/corpus-counts, else
  // $HOME/.cache/servebench/corpus-counts. "" (no caching) when SERVEBENCH_CACHE_DIR is set but
  // empty, or when there is no home folder.
  static std::string default_count_cache_dir();
  // The cache entry's file name for (corpus, tok): 32 hex digits + ".counts"; "" when `tok` has
  // no fingerprint (then nothing is cached).
  static std::string count_cache_file_name(std::string_view corpus, const tokenizer::Tokenizer& tok);

  // An embeddable count table for `corpus` and `tok`: every piece counted, the filler chosen and
  // the calibration check passed, in the cache file's layout keyed by the corpus and
  // tok.fingerprint() (not by this binary). corpus_counts_tool writes it at build time for the
  // vendored corpus and the builtin tokenizer. Errors: `tok` has no fingerprint, or its counts
  // are not additive over the corpus (calibration fails).
  static Result<std::string> make_embedded_count_table(std::string_view corpus, const tokenizer::Tokenizer& tok);

  enum class CountSource { kCounted, kCache, kEmbedded };
  // What the cache holds: per word occurrence of the corpus, its bare and space-prefixed token
  // counts (two bytes, clipped to 255), and which occurrence is the filler word.
  struct CountTable {
    static constexpr uint64_t kChooseFiller = ~uint64_t{0};
    std::string counts;
    uint64_t filler_word = kChooseFiller;
  };
  // Where create() got the piece counts from.
  CountSource count_source() const { return count_source_; }

  struct Prompt {
    std::string text;
    int64_t tokens = 0;  // tok.count(text); equals the target unless exactness was impossible
  };

  // A prompt of exactly `target_tokens` (>= 1) starting at a position drawn from `rng`.
  // `continuation`: the prompt will follow other text after a space (e.g. "{prefix} {prompt}"),
  // so its first piece is counted in its space-prefixed form.
  Prompt build(int64_t target_tokens, core::Rng& rng, bool continuation = false) const;

  // True when prompts are random vocabulary tokens (random_vocabulary()).
  bool random_tokens() const { return random_ != nullptr; }
  // True once a sampled prompt disagreed with the construction (then every prompt is verified).
  bool verifying_all() const { return verify_all_; }
  size_t piece_count() const { return pieces_.size(); }

  // Checks the additivity assumption on `samples` prompts of `target_tokens`; switches to
  // verify-all mode if any is off. Called by create() with a default sample.
  void calibrate(int samples, int64_t target_tokens, uint64_t seed);

 private:
  struct Piece {
    uint32_t offset;      // into corpus_
    uint32_t bytes;
    uint16_t bare_tokens;
    uint16_t cont_tokens;
  };
  ExactPromptBuilder(std::string corpus, const tokenizer::Tokenizer& tok) : corpus_(std::move(corpus)), tok_(&tok) {}
  // Builds from the counts (choosing the filler when table->filler_word is kChooseFiller and
  // recording the choice there), then calibrates.
  static Result<ExactPromptBuilder> from_counts(std::string_view corpus, const tokenizer::Tokenizer& tok,
                                                CountTable* table);
  // Built from the embedded table when it is for (corpus, tok) and calibration agrees.
  static std::optional<ExactPromptBuilder> from_embedded(std::string_view corpus, const tokenizer::Tokenizer& tok);
  std::string_view text_of(const Piece& p) const { return std::string_view(corpus_).substr(p.offset, p.bytes); }
  // Builds by construction only; returns the claimed count.
  int64_t assemble(int64_t target, size_t start, bool continuation, std::string* out) const;
  Prompt repair(int64_t target, size_t start, bool continuation) const;

  std::string corpus_;
  const tokenizer::Tokenizer* tok_;
  std::vector<Piece> pieces_;
  std::string filler_;          // a piece that is one token in both forms ("the")
  bool verify_all_ = false;
  CountSource count_source_ = CountSource::kCounted;
  std::shared_ptr<const RandomTokenPrompts> random_;  // set by random_vocabulary(): build() delegates
};

}  // namespace servebench::dataset
