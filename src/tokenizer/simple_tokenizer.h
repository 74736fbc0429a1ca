// SimpleTokenizer: the test-only "simple" spec. One token per whitespace-separated word, so
// counts are obvious in tests of other modules (mock server, load engine). Ids are a stable hash
// of the word (FNV-1a 32, folded into kSimpleVocabSize); decode renders each id as "w<id>" since
// hashes cannot be inverted.
//
// Thread safety: stateless; all methods const.
#pragma once

#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

inline constexpr size_t kSimpleVocabSize = 1u << 20;

class SimpleTokenizer final : public Tokenizer {
 public:
  std::vector<TokenId> encode(std::string_view text, bool add_special_tokens) const override;
  size_t count(std::string_view text) const override;
  std::string decode(const std::vector<TokenId>& ids, bool skip_special_tokens) const override;
  std::string name() const override { return "simple"; }
  size_t vocab_size() const override { return kSimpleVocabSize; }
};

}  // namespace servebench::tokenizer
