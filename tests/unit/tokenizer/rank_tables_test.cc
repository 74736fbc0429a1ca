// The builtin tokenizer's prebuilt lookup tables (rank_tables.h): built at build time, embedded,
// used in place; they must encode exactly as tables built at load from the blob.
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tokenizer/hash_maps.h"
#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/models.h"
#include "tokenizer/rank_tables.h"
#include "tokenizer/tiktoken.h"
#include "tokenizer/unicode.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::tokenizer {
namespace {

// A 64-byte aligned copy of some bytes (the embedding aligns the tables so).
class Aligned {
 public:
  explicit Aligned(std::string_view bytes) : buf_(bytes.size() + 64, '\0') {
    at_ = buf_.data() + (64 - reinterpret_cast<uintptr_t>(buf_.data()) % 64) % 64;
    std::memcpy(at_, bytes.data(), bytes.size());
    size_ = bytes.size();
  }
  std::string_view view() const { return std::string_view(at_, size_); }
  char* data() { return at_; }

 private:
  std::string buf_;
  char* at_;
  size_t size_;
};

// The builtin tokenizer with its tables built at load from the blob (the path before tables were
// prebuilt, and the fallback).
std::shared_ptr<const Tokenizer> built_at_load() {
  static const std::shared_ptr<const Tokenizer> t = [] {
    auto ranks = decode_rank_blob(builtin_rank_blob());
    EXPECT_TRUE(ranks);
    auto tok = make_tiktoken(ranks->tokens, TiktokenEncoding::kO200k, "reference", &ranks->merges);
    EXPECT_TRUE(tok);
    return *tok;
  }();
  return t;
}

std::string corpus_text() {
  std::ifstream in(testing::source_dir() + "/data/corpus/mobydick.txt", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(RankTables, BuiltinUsesTheEmbeddedTables) {
  auto t = builtin_tokenizer();
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_TRUE(builtin_uses_prebuilt_tables()) << "the embedded tables did not fit the blob: the build is inconsistent";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(builtin_rank_tables().data()) % 64, 0u);
}

// The embedded bytes are what this code builds from the blob (so they are not stale).
TEST(RankTables, EmbeddedTablesAreTheBlobsTables) {
  auto expected = encode_rank_tables(builtin_rank_blob());
  ASSERT_TRUE(expected) << expected.error().message;
  EXPECT_TRUE(builtin_rank_tables() == *expected);
  auto full = view_rank_tables(builtin_rank_blob(), builtin_rank_tables(), true);
  ASSERT_TRUE(full) << full.error().message;
  auto ranks = decode_rank_blob(builtin_rank_blob());
  ASSERT_TRUE(ranks);
  EXPECT_EQ(full->ranks, ranks->tokens.size());
}

TEST(RankTables, EncodesExactlyAsTablesBuiltAtLoad) {
  auto prebuilt = builtin_tokenizer();
  ASSERT_TRUE(prebuilt);
  const Tokenizer& a = **prebuilt;
  const Tokenizer& b = *built_at_load();
  EXPECT_EQ(a.vocab_size(), b.vocab_size());
  const std::string text = corpus_text();
  ASSERT_GT(text.size(), 100000u);
  // The whole corpus in chunks, plus text that exercises rare merges, digits, specials, bytes.
  for (size_t at = 0; at < text.size(); at += 64 * 1024) {
    const std::string_view chunk = std::string_view(text).substr(at, 64 * 1024);
    ASSERT_EQ(a.encode(chunk, false), b.encode(chunk, false)) << "chunk at " << at;
  }
  for (const char* s : {"", " ", "Hello world", "ünïcödé — 日本語のテキスト 😀👍🏽", "1234567890 3.14159",
                        "<|endoftext|> x <|endofprompt|>", "\xff\xfe invalid utf8 \xc3", "\t\n\r  \n\n",
                        "https://example.com/a?b=c&d=e#f", "    def f(x):\n        return x ** 2\n"}) {
    EXPECT_EQ(a.encode(s, true), b.encode(s, true)) << s;
    EXPECT_EQ(a.count(s), b.count(s)) << s;
  }
}

TEST(RankTables, DecodeAndVocabularyMatchTablesBuiltAtLoad) {
  auto prebuilt = builtin_tokenizer();
  ASSERT_TRUE(prebuilt);
  const auto& a = dynamic_cast<const HfTokenizer&>(**prebuilt);
  const auto& b = dynamic_cast<const HfTokenizer&>(*built_at_load());
  for (TokenId id = 0; id < a.vocab_size() + 2; ++id) {
    const std::string* x = a.id_to_token(id);
    const std::string* y = b.id_to_token(id);
    ASSERT_EQ(x == nullptr, y == nullptr) << id;
    if (x) {
      ASSERT_EQ(*x, *y) << id;
    }
  }
  const std::string text = "Call me Ishmael. Some years ago — never mind how long precisely 😀";
  const auto ids = a.encode(text, false);
  EXPECT_EQ(a.decode(ids, false), text);
  EXPECT_EQ(a.decode(ids, false), b.decode(ids, false));
  auto ranks = decode_rank_blob(builtin_rank_blob());
  ASSERT_TRUE(ranks);
  auto model = BpeModel::from_rank_tables(*view_rank_tables(builtin_rank_blob(), builtin_rank_tables()));
  for (uint32_t r : {0u, 1u, 255u, 256u, 1000u, 13225u, 100000u, 199997u}) {
    std::string spelled;
    for (unsigned char ch : ranks->tokens[r]) append_utf8(&spelled, byte_to_unicode()[ch]);
    EXPECT_EQ(model->token_to_id(spelled), r) << r;
  }
  EXPECT_EQ(model->token_to_id("not a token at all, surely"), std::nullopt);
}

// Tables that do not fit the blob are refused (then builtin builds its tables at load).
TEST(RankTables, TablesThatDoNotFitAreRefused) {
  const std::string good(builtin_rank_tables());
  const std::string_view blob = builtin_rank_blob();
  {
    Aligned ok(good);
    ASSERT_TRUE(view_rank_tables(blob, ok.view()));
  }
  auto refused = [&](const std::string& what, const std::string& bytes, std::string_view with_blob) {
    Aligned t(bytes);
    auto v = view_rank_tables(with_blob, t.view(), true);
    EXPECT_FALSE(v) << what;
  };
  auto flipped = [&](size_t at) {
    std::string b = good;
    b[at] = static_cast<char>(b[at] ^ 0x01);
    return b;
  };
  uint64_t slots, slots_at;
  std::memcpy(&slots, good.data() + 40, 8);
  std::memcpy(&slots_at, good.data() + 56, 8);
  refused("empty", "", blob);
  refused("bad magic", flipped(0), blob);
  refused("other version", flipped(8), blob);
  refused("other rank count", flipped(12), blob);
  refused("other blob size", flipped(16), blob);
  refused("other blob hash", flipped(24), blob);
  refused("other layout tag", flipped(32), blob);
  refused("other slot count", flipped(41), blob);
  refused("truncated", good.substr(0, good.size() - 8), blob);
  refused("a byte's rank", flipped(64 + 4 * 'e'), blob);
  refused("first offset", flipped(64 + 1024), blob);
  // Every merge's rank off by one: a merge no longer spells its token.
  std::string merges_off = good;
  for (uint64_t s = 0; s < slots; ++s) {
    uint64_t key;
    std::memcpy(&key, good.data() + slots_at + 8 * s, 8);
    if (key == PairMap::kEmpty) continue;
    PairMap::Value v;
    char* at = merges_off.data() + slots_at + 8 * slots + 8 * s;
    std::memcpy(&v, at, 8);
    v.rank = v.id = v.rank + 1;
    std::memcpy(at, &v, 8);
  }
  refused("merges off by one", merges_off, blob);
  // Slots rotated by one: the pairs are no longer where the hash puts them.
  std::string rotated = good;
  std::memmove(rotated.data() + slots_at + 8, good.data() + slots_at, 8 * (slots - 1));
  std::memcpy(rotated.data() + slots_at, good.data() + slots_at + 8 * (slots - 1), 8);
  std::memmove(rotated.data() + slots_at + 8 * slots + 8, good.data() + slots_at + 8 * slots, 8 * (slots - 1));
  std::memcpy(rotated.data() + slots_at + 8 * slots, good.data() + slots_at + 16 * slots - 8, 8);
  refused("slots moved", rotated, blob);
  // The right tables for another blob (one byte of one token changed).
  std::string other_blob(blob);
  other_blob[21] = static_cast<char>(other_blob[21] ^ 0x20);
  refused("another blob", good, other_blob);
}

TEST(PairMap, ViewCopyAndMove) {
  PairMap m;
  m.reserve(100);
  for (uint32_t i = 0; i < 100; ++i) m.insert(i, i + 1, {i, 1000 + i});
  PairMap v = PairMap::view(m.raw_keys(), m.raw_values(), m.capacity(), m.size());
  EXPECT_EQ(v.size(), 100u);
  EXPECT_EQ(v.memory_bytes(), 0u);
  for (uint32_t i = 0; i < 100; ++i) {
    const auto* x = v.find(i, i + 1);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x, m.find(i, i + 1)) << "a view reads the viewed slots";
    EXPECT_EQ(x->id, 1000 + i);
  }
  EXPECT_EQ(v.find(1, 1), nullptr);
  // Inserting into a view copies it first; the viewed map is untouched.
  v.insert(5000, 5001, {7, 7});
  ASSERT_NE(v.find(5000, 5001), nullptr);
  EXPECT_EQ(m.find(5000, 5001), nullptr);
  EXPECT_NE(v.find(3, 4), m.find(3, 4));
  EXPECT_EQ(v.find(3, 4)->id, 1003u);
  PairMap vc = PairMap::view(m.raw_keys(), m.raw_values(), m.capacity(), m.size());
  PairMap vcopy = vc;
  EXPECT_EQ(vcopy.find(3, 4), m.find(3, 4)) << "a copy of a view views the same slots";
  PairMap c = m;  // a copy of an owning map owns its slots
  EXPECT_NE(c.find(3, 4), m.find(3, 4));
  EXPECT_EQ(c.find(3, 4)->id, 1003u);
  PairMap moved = std::move(c);
  ASSERT_NE(moved.find(99, 100), nullptr);
  EXPECT_EQ(moved.find(99, 100)->rank, 99u);
  EXPECT_EQ(c.find(99, 100), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  PairMap v2 = PairMap::view(m.raw_keys(), m.raw_values(), m.capacity(), m.size());
  PairMap v3 = std::move(v2);
  EXPECT_EQ(v3.find(7, 8), m.find(7, 8)) << "a moved view still views";
}

}  // namespace
}  // namespace servebench::tokenizer
