// RandomTokenPrompts: the prompt source behind --prompt-corpus random. A prompt is a run of
// token ids drawn independently and uniformly from the tokenizer's vocabulary, decoded to text,
// and then corrected until the text encodes to exactly the requested number of tokens (the
// server sees the canonical encoding of that text, as with AIPerf's and vLLM bench's random
// prompts).
//
// The pool of ids drawn from (pool()): every id below vocab_size() that is not an added token
// (Tokenizer::is_added_token: <|endoftext|>, <|im_start|>, <think>, <tool_call>, ...) and whose
// own decode is non-empty, valid UTF-8 without U+FFFD. Byte-level BPE vocabularies hold pieces
// of multi-byte characters (and SentencePiece byte-fallback tokens <0xE3>); those decode to
// U+FFFD on their own, so leaving them out is the same as redrawing them, and any run of pool
// ids decodes to valid UTF-8.
//
// Exact length: one id more than the target is drawn (the text of random ids encodes to a few
// percent more tokens than were drawn); the decoded text loses U+FFFD (from a cut character)
// and leading and trailing White_Space (so it joins other text after a space without the
// tokenizer merging across the seam), then is encoded; while the count is off, that encoding is
// cut at the target (over) or extended by fresh draws with the same margin (under), decoded and
// encoded again. Two or three encodes per prompt in practice; after kMaxRounds the prompt is
// redrawn, and if that keeps failing it is returned with its true count (Prompt::tokens !=
// target), never a wrong claim. A text whose encoding holds a special token (random neighbours
// spelling "<|endoftext|>") is not returned: that token is dropped and the prompt topped up.
//
// Thread safety: immutable after create(); build() may run on several threads with their own Rng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/rng.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

class RandomTokenPrompts {
 public:
  // Builds the pool by decoding every id once (tens of ms for a 150k vocabulary). `tok` must
  // outlive this object. Error: no id qualifies (e.g. an empty vocabulary).
  static Result<RandomTokenPrompts> create(const tokenizer::Tokenizer& tok);

  struct Prompt {
    std::string text;
    int64_t tokens = 0;  // tok.count(text) (after a space when continuation); == target unless exactness failed
  };
  // A prompt of exactly `target_tokens` (>= 1) tokens, drawn from a generator seeded by one
  // next_u64() of `rng`. `continuation`: the
  // prompt will follow other text after a space, so it is counted as " " + text would be there.
  Prompt build(int64_t target_tokens, core::Rng& rng, bool continuation = false) const;

  // The ids drawn from, ascending.
  const std::vector<tokenizer::TokenId>& pool() const { return pool_; }

 private:
  explicit RandomTokenPrompts(const tokenizer::Tokenizer& tok) : tok_(&tok) {}
  void draw(int64_t n, core::Rng& rng, std::vector<tokenizer::TokenId>* ids) const;
  // The decoded text of `ids`, valid UTF-8 without U+FFFD, trimmed of White_Space at both ends.
  std::string clean_decode(const std::vector<tokenizer::TokenId>& ids) const;
  // The number of tokens `text` adds as sent (alone, or after "a " when continuation); *ids =
  // those tokens (the text's own encoding when the anchor does not split off cleanly).
  int64_t encode_as_sent(const std::string& text, bool continuation, std::vector<tokenizer::TokenId>* ids) const;
  // Removes special added tokens (those decode(skip_special_tokens) drops); true if any.
  bool drop_special_tokens(std::vector<tokenizer::TokenId>* ids) const;
  // One attempt of up to kMaxRounds corrections; false when it did not land on the target.
  bool attempt(int64_t target, core::Rng& rng, bool continuation, Prompt* out) const;

  const tokenizer::Tokenizer* tok_;
  std::vector<tokenizer::TokenId> pool_;
  std::vector<tokenizer::TokenId> anchor_ids_;  // encode("a"): continuation prompts are counted after it
};

}  // namespace servebench::dataset
