// Tokenization models of the tokenizer.json pipeline: BPE, Unigram, WordPiece, WordLevel.
//
// Thread safety: immutable after construction; tokenize() keeps a per-thread word cache keyed
// by the model's unique instance number, so concurrent callers never share mutable state.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tokenizer/bpe_merge.h"
#include "tokenizer/hash_maps.h"
#include "tokenizer/rank_tables.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

class Model {
 public:
  Model();
  virtual ~Model() = default;
  // Appends the ids of one pre-tokenized word.
  virtual void tokenize(std::string_view word, std::vector<TokenId>* out) const = 0;
  // Vocabulary lookups in the model's own spelling (byte-level models: the "Ġ" alphabet).
  virtual std::optional<TokenId> token_to_id(std::string_view token) const;
  virtual const std::string* id_to_token(TokenId id) const;
  virtual size_t vocab_size() const { return id_to_token_.size(); }
  size_t memory_bytes() const;

 protected:
  uint64_t uid_;  // keys the per-thread caches
  StringIdMap vocab_;                    // model spelling -> id (byte models: raw bytes)
  std::vector<std::string> id_to_token_;  // id -> model spelling ("" for holes)
  bool byte_keys_ = false;               // vocab_ keys are raw bytes (ByteLevel pre-tokenizer)
};

struct BpeConfig {
  std::vector<std::pair<std::string, TokenId>> vocab;
  std::vector<std::pair<std::string, std::string>> merges;
  std::optional<std::string> unk_token;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
  bool fuse_unk = false;
  bool byte_fallback = false;
  bool ignore_merges = false;
  // The pipeline has a ByteLevel pre-tokenizer: words arrive as raw bytes and the vocabulary
  // is converted from the byte-level alphabet to bytes at load.
  bool byte_level = false;
};

class BpeModel final : public Model {
 public:
  static Result<std::unique_ptr<BpeModel>> create(BpeConfig config);
  // tiktoken: merge ranks derived from token ranks. tokens[i] is the byte string of rank i.
  // `merges` (optional, from derive_rank_merges) skips the derivation; merges[r] is the pair
  // forming rank r, {-1,-1} for none.
  static Result<std::unique_ptr<BpeModel>> from_ranks(
      const std::vector<std::string>& tokens,
      const std::vector<std::pair<int32_t, int32_t>>* merges = nullptr);
  // tiktoken from prebuilt tables (rank_tables.h): the merge table is used in place, so this
  // costs no table construction. The vocabulary and the id -> token table (token_to_id,
  // id_to_token, hence decode) are built from the blob on first use. Encodes exactly as
  // from_ranks(tokens of the blob, merges of the blob). REQUIRES: the tables' memory outlives
  // the model (static storage).
  static std::unique_ptr<BpeModel> from_rank_tables(RankTables tables);
  // The pair of lower ranks that tiktoken's algorithm merges last to form each rank.
  static std::vector<std::pair<int32_t, int32_t>> derive_rank_merges(const std::vector<std::string>& tokens);
  void tokenize(std::string_view word, std::vector<TokenId>* out) const override;
  std::optional<TokenId> token_to_id(std::string_view token) const override;
  const std::string* id_to_token(TokenId id) const override;
  size_t vocab_size() const override;
  size_t memory_bytes() const { return Model::memory_bytes() + merges_.memory_bytes(); }

 private:
  void merge_word(std::string_view word, std::vector<TokenId>* out,
                  uint32_t max_rank = UINT32_MAX) const;
  void merge_word_below(std::string_view word, uint32_t max_rank, std::vector<TokenId>* out) const;
  // A word too long for the word cache: merged in pieces where that provably changes no id
  // (bpe_merge.h), else whole.
  void tokenize_long(std::string_view word, std::vector<TokenId>* out) const;
  // The byte pairs inside this model's tokens, built on first use; null when words of this model
  // cannot be cut that way (see bpe_merge.h).
  const TokenBigrams* token_bigrams() const;
  bool may_cut_before(std::string_view word, size_t i) const;
  // from_rank_tables: fills vocab_ and id_to_token_ from the blob, once, on first use.
  void build_vocab_from_ranks() const;
  struct LazyRanks {
    RankTables tables;
    std::once_flag once;
  };
  std::unique_ptr<LazyRanks> lazy_;  // set by from_rank_tables only
  struct LongWords {
    std::once_flag once;
    std::unique_ptr<TokenBigrams> bigrams;
    bool char_level = false;  // cut only between two characters that are tokens
  };
  std::unique_ptr<LongWords> long_words_ = std::make_unique<LongWords>();
  PairMap merges_;
  std::optional<TokenId> unk_id_;
  std::string prefix_, suffix_;
  bool fuse_unk_ = false, byte_fallback_ = false, ignore_merges_ = false;
  int32_t byte_ids_[256];            // byte-level: id of each single byte, -1 if absent
  int32_t byte_fallback_ids_[256];   // <0xXX> tokens
};

struct UnigramConfig {
  std::vector<std::pair<std::string, double>> vocab;  // id = index
  std::optional<TokenId> unk_id;
  bool byte_fallback = false;
};

class UnigramModel final : public Model {
 public:
  static Result<std::unique_ptr<UnigramModel>> create(UnigramConfig config);
  void tokenize(std::string_view word, std::vector<TokenId>* out) const override;

 private:
  std::vector<double> scores_;
  std::optional<TokenId> unk_id_;
  bool byte_fallback_ = false;
  double min_score_ = 0;
  size_t max_piece_bytes_ = 0;
  // Bit (hash_bytes(p) & mask) set for every proper prefix p of a piece: when the bit of the text
  // matched so far is clear, no longer piece starts there, and the search stops instead of
  // trying every length up to max_piece_bytes_. A set bit may be a collision (search goes on).
  std::vector<uint64_t> prefix_bits_;
  uint64_t prefix_mask_ = 0;
  bool may_extend(std::string_view prefix) const {
    const uint64_t h = hash_bytes(prefix) & prefix_mask_;
    return (prefix_bits_[h >> 6] >> (h & 63)) & 1;
  }
  int32_t byte_fallback_ids_[256];
};

class WordPieceModel final : public Model {
 public:
  static Result<std::unique_ptr<WordPieceModel>> create(
      std::vector<std::pair<std::string, TokenId>> vocab, std::string unk_token,
      std::string continuing_subword_prefix, size_t max_input_chars_per_word);
  void tokenize(std::string_view word, std::vector<TokenId>* out) const override;

 private:
  TokenId unk_id_ = 0;
  std::string prefix_;
  size_t max_chars_ = 100;
};

class WordLevelModel final : public Model {
 public:
  static Result<std::unique_ptr<WordLevelModel>> create(
      std::vector<std::pair<std::string, TokenId>> vocab, std::string unk_token);
  void tokenize(std::string_view word, std::vector<TokenId>* out) const override;

 private:
  std::optional<TokenId> unk_id_;
};

}  // namespace servebench::tokenizer
