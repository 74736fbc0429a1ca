// The compact rank blob (SBTK2, tiktoken.h) and the lookup tables prebuilt from it
// (rank_tables.h). Kept apart from the tokenizer pipeline so that tokenizer_tables_tool, which
// builds the embedded tables at build time, compiles this file alone.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "core/content_hash.h"
#include "tokenizer/rank_tables.h"
#include "tokenizer/tiktoken.h"

namespace servebench::tokenizer {
namespace {

constexpr char kTablesMagic[8] = {'S', 'B', 'T', 'K', 'T', 'A', 'B', '1'};
constexpr size_t kByteRanksAt = 64;
constexpr size_t kOffsetsAt = kByteRanksAt + 256 * 4;
constexpr size_t kMergeSamples = 64;

size_t align64(size_t n) { return (n + 63) & ~size_t{63}; }

using core::get_u32;
using core::get_u64;
using core::put_u32;
using core::put_u64;

}  // namespace

std::string encode_rank_blob(const RankBlob& blob) {
  std::string out = "SBTK2\n";
  auto n = static_cast<uint32_t>(blob.tokens.size());
  out.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : blob.tokens) {
    out.push_back(static_cast<char>(t.size()));
    out += t;
  }
  auto varint = [&](uint32_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  };
  for (size_t r = 0; r < blob.tokens.size(); ++r) {
    auto [a, b] = r < blob.merges.size() ? blob.merges[r] : std::pair<int32_t, int32_t>{-1, -1};
    varint(static_cast<uint32_t>(a + 1));
    varint(static_cast<uint32_t>(b + 1));
  }
  return out;
}

Result<RankBlob> decode_rank_blob(std::string_view blob) {
  auto bad = [] { return make_error(ErrorCode::kParse, "embedded rank blob is corrupt or truncated"); };
  if (blob.size() < 10 || blob.substr(0, 6) != "SBTK2\n") {
    return make_error(ErrorCode::kParse, "embedded rank blob has a bad header");
  }
  uint32_t n;
  std::memcpy(&n, blob.data() + 6, 4);
  RankBlob out;
  out.tokens.reserve(n);
  size_t pos = 10;
  for (uint32_t i = 0; i < n; ++i) {
    if (pos >= blob.size()) return bad();
    size_t len = static_cast<unsigned char>(blob[pos++]);
    if (pos + len > blob.size()) return bad();
    out.tokens.emplace_back(blob.substr(pos, len));
    pos += len;
  }
  auto varint = [&](uint32_t* v) {
    *v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= blob.size()) return false;
      auto byte = static_cast<unsigned char>(blob[pos++]);
      *v |= static_cast<uint32_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  };
  out.merges.resize(n);
  for (uint32_t r = 0; r < n; ++r) {
    uint32_t a, b;
    if (!varint(&a) || !varint(&b)) return bad();
    out.merges[r] = {static_cast<int32_t>(a) - 1, static_cast<int32_t>(b) - 1};
  }
  return out;
}

uint64_t rank_blob_hash(std::string_view rank_blob) { return hash_bytes(rank_blob); }

Result<std::string> encode_rank_tables(std::string_view rank_blob) {
  auto rb = decode_rank_blob(rank_blob);
  if (!rb) return tl::unexpected(rb.error());
  const auto n = static_cast<uint32_t>(rb->tokens.size());
  // Offsets of the length bytes (decode_rank_blob checked that they are in bounds).
  std::vector<uint32_t> offsets(n);
  size_t pos = 10;
  for (uint32_t r = 0; r < n; ++r) {
    offsets[r] = static_cast<uint32_t>(pos);
    pos += 1 + static_cast<unsigned char>(rank_blob[pos]);
  }
  // Each byte's rank: the last rank spelling it, as the vocabulary map of from_ranks keeps.
  int32_t byte_ranks[256];
  std::fill(std::begin(byte_ranks), std::end(byte_ranks), -1);
  for (uint32_t r = 0; r < n; ++r) {
    if (rb->tokens[r].size() == 1) byte_ranks[static_cast<unsigned char>(rb->tokens[r][0])] = static_cast<int32_t>(r);
  }
  for (int b = 0; b < 256; ++b) {
    if (byte_ranks[b] < 0) return make_error(ErrorCode::kParse, "rank blob: byte " + std::to_string(b) + " has no rank");
  }
  // The merge table exactly as from_ranks builds it: reserved for n, inserted in rank order.
  PairMap merges;
  merges.reserve(n);
  for (uint32_t r = 0; r < n; ++r) {
    auto [a, b] = rb->merges[r];
    if (a < 0) continue;
    if (static_cast<size_t>(a) >= r || static_cast<size_t>(b) >= r) {
      return make_error(ErrorCode::kParse, "rank blob: merge of rank " + std::to_string(r) + " is out of order");
    }
    merges.insert(static_cast<uint32_t>(a), static_cast<uint32_t>(b), {r, r});
  }
  const size_t slots_at = align64(kOffsetsAt + 4 * static_cast<size_t>(n));
  std::string out(kTablesMagic, 8);
  put_u32(&out, kRankTablesVersion);
  put_u32(&out, n);
  put_u64(&out, rank_blob.size());
  put_u64(&out, rank_blob_hash(rank_blob));
  put_u64(&out, PairMap::layout_tag());
  put_u64(&out, merges.capacity());
  put_u64(&out, merges.size());
  put_u64(&out, slots_at);
  for (int32_t br : byte_ranks) put_u32(&out, static_cast<uint32_t>(br));
  for (uint32_t off : offsets) put_u32(&out, off);
  out.resize(slots_at, '\0');
  out.append(reinterpret_cast<const char*>(merges.raw_keys()), merges.capacity() * sizeof(uint64_t));
  out.append(reinterpret_cast<const char*>(merges.raw_values()), merges.capacity() * sizeof(PairMap::Value));
  return out;
}

Result<RankTables> view_rank_tables(std::string_view blob, std::string_view tables, bool full) {
  auto bad = [](const std::string& why) { return make_error(ErrorCode::kParse, "prebuilt rank tables: " + why); };
  if (tables.size() < kOffsetsAt || std::memcmp(tables.data(), kTablesMagic, 8) != 0) return bad("bad header");
  const char* p = tables.data();
  if (get_u32(p + 8) != kRankTablesVersion) return bad("other format version");
  if (reinterpret_cast<uintptr_t>(p) % 8 != 0) return bad("misaligned");
  const uint32_t n = get_u32(p + 12);
  if (blob.size() < 10 || blob.substr(0, 6) != "SBTK2\n" || get_u32(blob.data() + 6) != n || n < 256)
    return bad("rank count differs from the blob's");
  if (get_u64(p + 16) != blob.size()) return bad("made for a blob of another size");
  if (full && get_u64(p + 24) != rank_blob_hash(blob)) return bad("made for another blob");
  if (get_u64(p + 32) != PairMap::layout_tag()) return bad("made with another hash table layout");
  const uint64_t slots = get_u64(p + 40), merges = get_u64(p + 48), slots_at = get_u64(p + 56);
  if (slots < 16 || (slots & (slots - 1)) != 0 || merges * 2 > slots || merges >= n) return bad("bad merge table size");
  if (slots_at != align64(kOffsetsAt + 4 * static_cast<size_t>(n)) ||
      tables.size() != slots_at + slots * (sizeof(uint64_t) + sizeof(PairMap::Value)))
    return bad("size does not match the header");

  RankTables t;
  t.blob = blob;
  t.ranks = n;
  t.offsets = reinterpret_cast<const uint32_t*>(p + kOffsetsAt);
  const auto* keys = reinterpret_cast<const uint64_t*>(p + slots_at);
  const auto* values = reinterpret_cast<const PairMap::Value*>(p + slots_at + slots * sizeof(uint64_t));
  t.merges = PairMap::view(keys, values, slots, merges);
  // Offsets are in bounds and increasing, checked on a sample (and every byte rank's below).
  auto offset_ok = [&](uint32_t r) {
    const uint32_t at = t.offsets[r];
    return at >= 10 && at < blob.size() && at + 1 + static_cast<unsigned char>(blob[at]) <= blob.size() &&
           (r == 0 ? at == 10 : t.offsets[r - 1] < at);
  };
  for (uint32_t r = 0; r < n; r += n / kMergeSamples) {
    if (!offset_ok(r)) return bad("bad rank offset");
  }
  if (!offset_ok(n - 1)) return bad("bad rank offset");
  for (int b = 0; b < 256; ++b) {
    const auto r = static_cast<int32_t>(get_u32(p + kByteRanksAt + 4 * b));
    const char byte = static_cast<char>(b);
    if (r < 0 || static_cast<uint32_t>(r) >= n || !offset_ok(static_cast<uint32_t>(r)) ||
        t.token(static_cast<uint32_t>(r)) != std::string_view(&byte, 1))
      return bad("a byte's rank does not spell it");
    t.byte_ranks[b] = r;
  }
  // A sample of merges: the two parts spell the merged token, and probing finds the pair where
  // it sits (the slot layout is the one this code's PairMap probes).
  std::string joined;
  size_t seen = 0;
  for (uint64_t s = 0; s < slots && seen < kMergeSamples; s += slots / kMergeSamples) {
    uint64_t at = s;
    while (at < slots && keys[at] == PairMap::kEmpty) ++at;
    if (at == slots) break;
    const auto a = static_cast<uint32_t>(keys[at] >> 32), b = static_cast<uint32_t>(keys[at]);
    const PairMap::Value v = values[at];
    if (a >= v.rank || b >= v.rank || v.rank >= n || v.id != v.rank || !offset_ok(a) || !offset_ok(b) ||
        !offset_ok(v.rank))
      return bad("a merge is out of order");
    joined.assign(t.token(a));
    joined.append(t.token(b));
    if (joined != t.token(v.rank)) return bad("a merge does not spell its token");
    if (t.merges.find(a, b) != &values[at]) return bad("a merge is not where its hash puts it");
    ++seen;
  }
  if (seen == 0 && merges > 0) return bad("no merges found");
  return t;
}

}  // namespace servebench::tokenizer
