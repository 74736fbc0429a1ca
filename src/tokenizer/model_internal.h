// Internals shared by the model implementations (models.cc, bpe_model.cc): the per-thread word
// cache and small vocabulary helpers. Not part of the tokenizer's interface.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/hash_maps.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer::internal {

// Per-thread word -> ids cache of one model. When full it stops admitting words (as HF's cache
// does): the words seen first are the frequent ones in Zipf-distributed text.
class WordCache {
 public:
  static constexpr size_t kMaxWords = 1 << 16;
  static constexpr size_t kMaxWordBytes = 256;
  bool find(std::string_view word, std::vector<TokenId>* out) const {
    const uint32_t* e = map_.find(word);
    if (!e) return false;
    out->insert(out->end(), ids_.begin() + starts_[*e], ids_.begin() + starts_[*e + 1]);
    return true;
  }
  void insert(std::string_view word, const TokenId* ids, size_t n) {
    if (word.size() > kMaxWordBytes || map_.size() >= kMaxWords) return;
    map_.insert(word, static_cast<uint32_t>(starts_.size() - 1));
    ids_.insert(ids_.end(), ids, ids + n);
    starts_.push_back(static_cast<uint32_t>(ids_.size()));
  }

 private:
  StringIdMap map_;
  std::vector<TokenId> ids_;
  std::vector<uint32_t> starts_{0};
};

// The calling thread's cache of the model with unique number `uid` (Model::uid_).
WordCache& cache_for(uint64_t uid);

// ids[b] = id of the "<0xXX>" token of byte b, -1 where the vocabulary has none.
void fill_byte_fallback(const StringIdMap& vocab, int32_t* ids);

// (*table)[id] = s, growing the table as needed.
void set_token(std::vector<std::string>* table, TokenId id, std::string s);

}  // namespace servebench::tokenizer::internal
