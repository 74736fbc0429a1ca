// Lookup tables prebuilt from a rank blob (tiktoken.h's SBTK2 format), so that loading the
// `builtin` tokenizer costs no table construction: tokenizer_tables_tool writes them at build
// time with this code, they are embedded in the binary next to the blob, and BpeModel uses the
// merge table in place (PairMap::view).
//
// Layout (little-endian; the embedding aligns the start to 64 bytes):
//   0   "SBTKTAB1"             8  u32 version (kRankTablesVersion)   12 u32 ranks n
//   16  u64 rank blob bytes    24 u64 rank blob hash (rank_blob_hash)
//   32  u64 PairMap::layout_tag()                                    40 u64 merge slots (power of 2)
//   48  u64 merges             56 u64 offset of the slot arrays
//   64  i32 byte_ranks[256]    (rank of each single byte)
//   1088 u32 offsets[n]        (position of rank r's length byte in the blob)
//   slots: u64 keys[slots], then PairMap::Value values[slots] (PairMap's own slot layout)
// Bump kRankTablesVersion whenever this layout changes.
//
// Thread safety: plain functions over immutable bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "tokenizer/hash_maps.h"

namespace servebench::tokenizer {

constexpr uint32_t kRankTablesVersion = 1;

// The tables of `rank_blob`, built with the same code as BpeModel::from_ranks (merges inserted
// in rank order, each byte's last rank). Errors name what is wrong with the blob.
Result<std::string> encode_rank_tables(std::string_view rank_blob);

// 64-bit content hash of a rank blob (identifies it in the tables' header).
uint64_t rank_blob_hash(std::string_view rank_blob);

// Prebuilt tables in use: views into the blob and the tables' bytes, which must outlive it.
struct RankTables {
  std::string_view blob;
  uint32_t ranks = 0;
  const uint32_t* offsets = nullptr;
  int32_t byte_ranks[256] = {};
  PairMap merges;  // a view
  // Bytes of rank r ("" if its offset is out of bounds). REQUIRES: r < ranks.
  std::string_view token(uint32_t r) const {
    const uint32_t at = offsets[r];
    if (at >= blob.size()) return {};
    return blob.substr(at + 1, static_cast<unsigned char>(blob[at]));
  }
};

// Checks `tables` against `rank_blob` cheaply (header, sizes, alignment, the layout tag, every
// byte's rank, and a sample of merges whose two parts must spell the merged token) and returns
// views of them. An error means the tables must not be used (build from the blob instead).
// `full` also compares the blob's hash (reads all of it).
Result<RankTables> view_rank_tables(std::string_view rank_blob, std::string_view tables, bool full = false);

}  // namespace servebench::tokenizer
