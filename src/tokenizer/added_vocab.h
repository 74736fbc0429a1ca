// AddedVocabulary: tokens matched in the raw text before the model (HF `added_tokens`), with
// lstrip / rstrip / single_word / normalized / special. Matching is leftmost-longest and
// non-overlapping, like HF's Aho-Corasick matcher.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/pipeline.h"

namespace servebench::tokenizer {

struct AddedToken {
  std::string content;
  TokenId id = 0;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
};

// One split of the input: a matched added token (id >= 0) or text for the pipeline.
struct AddedSplit {
  std::string_view text;
  int64_t id = -1;
};

class AddedVocabulary {
 public:
  // `normalizer` (may be null) spells the normalized tokens as they appear after normalization.
  AddedVocabulary(std::vector<AddedToken> tokens, const Normalizer* normalizer);
  bool empty() const { return tokens_.empty(); }
  // Splits `text` on tokens of the given kind (normalized ones or not); appends to *out.
  void split(std::string_view text, bool normalized, std::vector<AddedSplit>* out) const;
  const AddedToken* by_id(TokenId id) const;
  const AddedToken* by_content(std::string_view content) const;
  const std::vector<AddedToken>& tokens() const { return tokens_; }

 private:
  struct Matcher {
    std::vector<uint32_t> by_first_byte[256];  // indices into tokens_, longest pattern first
    std::vector<std::string> patterns;         // per token index (normalized spelling)
    bool any = false;
    int only_first = -1;  // the byte every pattern starts with when they share one (memchr skips)
  };
  std::vector<AddedToken> tokens_;
  Matcher plain_, normalized_;
  std::unordered_map<TokenId, size_t> by_id_;
  std::unordered_map<std::string, size_t> by_content_;
};

}  // namespace servebench::tokenizer
