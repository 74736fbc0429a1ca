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
// Thread safety: merge_symbols keeps per-thread scratch buffers; set_merge_queue is a
// process-wide relaxed setting meant for tests and benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>
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

// Forces one queue for every later merge_symbols call in the process (kAuto: the default
// choice by word length). For tests and benchmarks that compare the two.
void set_merge_queue(MergeQueue queue);
MergeQueue merge_queue();

}  // namespace servebench::tokenizer
