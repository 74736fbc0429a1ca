// The merge loop of byte-pair encoding over one pre-tokenized word: repeatedly merges the
// adjacent pair with the lowest merge rank, the leftmost among equal ranks, until no adjacent
// pair has a merge. This is HF tokenizers' Word::merge_all (including its validity rule: a queued
// merge still applies when the pair now at its position merges into the same id) and, with
// merges derived from ranks, tiktoken's byte_pair_merge.
//
// Two priority queues give identical merges:
//  - kHeap: one binary heap of (rank, position) entries. Fastest for the short words of
//    ordinary text, but on a word of millions of symbols every pop walks a heap far larger than
//    the caches (an 8 MB word with no whitespace took seconds).
//  - kRankBuckets: one bucket per merge rank, each a run of positions appended in increasing
//    order (merges of one rank are applied left to right, so the entries they create arrive
//    sorted) plus a small heap for the rare out-of-order entry, and a heap of the ranks that
//    have entries. Pops and pushes touch memory near the previous ones, so a long word costs
//    about what the same bytes of prose cost.
// kAuto uses kRankBuckets for words of at least kRankBucketMinSymbols symbols.
//
// Long words are also cut into pieces where cutting provably changes no id (TokenBigrams): when
// every symbol during BPE is a vocabulary token spelling its bytes of the word (byte-level
// models; character-level models between two known characters, when no merge takes an unknown
// or byte-fallback token), no symbol can span a boundary between two bytes that appear next to
// each other in no token. No pair across such a boundary has a merge, and a merge on one side
// never changes a pair of the other, so each side's merges happen in the same order whether the
// sides are merged together or alone. Text with little repetition (random letters, mixed
// scripts, emoji) has such boundaries every few dozen bytes, and SentencePiece-style text (one
// word per text, "▁" for spaces) at nearly every space, so the pieces merge in cache and
// repeated pieces come from the word cache.
//
// Thread safety: merge_symbols keeps per-thread scratch buffers (released after a word of more
// than 64 Ki symbols, except 4 bytes per merge rank for the bucket index); TokenBigrams is
// immutable once filled; set_long_word_options is a process-wide relaxed setting meant for tests
// and benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenizer/hash_maps.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

struct BpeSymbol {
  TokenId id;
  int32_t prev, next;  // neighbours in the word, -1 at either end
  uint32_t len;        // bytes covered; 0 once merged into its left neighbour
};

enum class MergeQueue { kAuto, kHeap, kRankBuckets };

constexpr size_t kRankBucketMinSymbols = 256;

// Applies `merges` with rank < max_rank to *syms in place. REQUIRES: *syms is the list in index
// order (prev = i - 1, next = i + 1, -1 at the ends), every len > 0. The result is the symbols
// whose len is still non-zero, in index order.
void merge_symbols(const PairMap& merges, uint32_t max_rank, std::vector<BpeSymbol>* syms);

// The byte pairs that occur inside some token of a byte-level vocabulary (8 KB).
class TokenBigrams {
 public:
  void add_token(std::string_view token);
  bool inside_token(unsigned char a, unsigned char b) const {
    const unsigned i = static_cast<unsigned>(a) << 8 | b;
    return (bits_[i >> 6] >> (i & 63)) & 1;
  }
  // Calls piece(p) for consecutive pieces p of `word` that concatenate to it, cut only before
  // bytes i where !inside_token(word[i - 1], word[i]) and may_cut(i) (the model's own condition),
  // and only once a piece holds at least min_bytes.
  template <class Cut, class F>
  void for_each_piece(std::string_view word, size_t min_bytes, Cut&& may_cut, F&& piece) const {
    size_t start = 0;
    for (size_t i = min_bytes ? min_bytes : 1; i < word.size(); ++i) {
      if (i - start < min_bytes) continue;
      if (!inside_token(static_cast<unsigned char>(word[i - 1]),
                        static_cast<unsigned char>(word[i])) &&
          may_cut(i)) {
        piece(word.substr(start, i - start));
        start = i;
      }
    }
    piece(word.substr(start));
  }

 private:
  uint64_t bits_[65536 / 64] = {};
};

// Strategies for long words; the defaults outside tests. Every combination gives the same ids;
// tests and benchmarks change them process-wide (relaxed atomics) to compare.
struct LongWordOptions {
  MergeQueue queue = MergeQueue::kAuto;
  bool split_at_safe_boundaries = true;  // TokenBigrams pieces (byte-level models)
};
void set_long_word_options(const LongWordOptions& options);
LongWordOptions long_word_options();

}  // namespace servebench::tokenizer
