// The on-disk cache of corpus piece counts behind ExactPromptBuilder (exact_prompts.h): file
// layout, keys, reading, writing and pruning. Internal to the dataset module; the embedded
// table (embedded_counts.h) uses the same layout.
//
// Thread safety: pure functions; several processes may read and write one folder at once
// (writes go to a temporary name and are renamed into place).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/env.h"
#include "core/result.h"
#include "dataset/exact_prompts.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset::count_cache {

using CountTable = ExactPromptBuilder::CountTable;

// The word rule and the anchor are part of every key: counts made under another rule differ.
inline constexpr size_t kMaxPieceBytes = 64;  // very long "words" (rules, URLs) are skipped
// A piece's space-prefixed cost is measured after an anchor word rather than as " word" alone:
// tokenizers that prepend "▁" (SentencePiece layouts) would count a leading space twice.
inline constexpr std::string_view kAnchor = "a";
inline constexpr size_t kHeaderBytes = 56;

struct CacheKey {
  uint64_t hi = 0, lo = 0;
  std::string file_name() const;  // 32 hex digits + ".counts"
};

// Key of a cache entry for (corpus, tok): nullopt when `tok` has no fingerprint or the running
// binary cannot be identified (then nothing is cached).
std::optional<CacheKey> cache_key(std::string_view corpus, const tokenizer::Tokenizer& tok);
// Key of the table embedded at build time (no binary identity: see count_cache.cc).
CacheKey embedded_key(std::string_view corpus, std::string_view fingerprint);

// The corpus size a table in the cache layout was made for; 0 when `data` is too short.
uint64_t table_corpus_bytes(std::string_view data);

// Validates a table in the cache layout; the error says why it was not used (debug log).
Result<CountTable> parse_count_table(std::string_view data, const CacheKey& key,
                                     size_t corpus_bytes);
Result<CountTable> read_count_cache(const std::string& path, const CacheKey& key,
                                    size_t corpus_bytes);
// The cache layout's bytes for `table`.
std::string encode_count_table(const CacheKey& key, size_t corpus_bytes, const CountTable& table);
Status write_count_cache(const std::string& dir, const std::string& path, const CacheKey& key,
                         size_t corpus_bytes, const CountTable& table);
// Bounds the folder (oldest entries beyond a fixed count, stale temporaries).
void prune_count_cache(const std::string& dir);

// $SERVEBENCH_CACHE_DIR/corpus-counts, else $XDG_CACHE_HOME/servebench/corpus-counts (absolute
// only), else $HOME/.cache/servebench/corpus-counts; "" when SERVEBENCH_CACHE_DIR is set but
// empty, or there is no home folder.
std::string default_dir(const core::EnvSnapshot& env);

}  // namespace servebench::dataset::count_cache
