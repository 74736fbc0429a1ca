// Pipeline pieces on tiny hand-written tokenizer.json documents (each case checked against HF
// semantics by hand; the exactness suite covers real files).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/pre_tokenizers.h"
#include "tokenizer/unicode.h"

namespace servebench::tokenizer {
namespace {

std::shared_ptr<const Tokenizer> parse(const std::string& json) {
  auto t = parse_tokenizer_json(json, "test");
  EXPECT_TRUE(t.has_value()) << (t ? "" : t.error().message);
  return t ? *t : nullptr;
}

const char* kWordLevel = R"("model":{"type":"WordLevel","unk_token":"?","vocab":{"?":0,"a":1,"b":2,"ab":3,"<x>":4,"-":5,"a-":6,"-b":7}})";

std::vector<std::string> split(SplitBehavior b, std::string_view text) {
  SplitPreTokenizer p(nullptr, "-", b, false);
  std::vector<Piece> pieces{{text, true}};
  Arena arena;
  p.split(&pieces, &arena);
  std::vector<std::string> out;
  for (auto& x : pieces) out.emplace_back(x.text);
  return out;
}

TEST(SplitBehavior, AllFive) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split(SplitBehavior::kRemoved, "a-b--c"), (V{"a", "b", "c"}));
  EXPECT_EQ(split(SplitBehavior::kIsolated, "a-b--c"), (V{"a", "-", "b", "-", "-", "c"}));
  EXPECT_EQ(split(SplitBehavior::kMergedWithPrevious, "a-b--c"), (V{"a-", "b-", "-", "c"}));
  EXPECT_EQ(split(SplitBehavior::kMergedWithNext, "a-b--c"), (V{"a", "-b", "-", "-c"}));
  EXPECT_EQ(split(SplitBehavior::kContiguous, "a-b--c"), (V{"a", "-", "b", "--", "c"}));
}

TEST(AddedTokens, LstripRstripSingleWord) {
  auto t = parse(std::string(R"({"added_tokens":[{"id":4,"content":"<x>","lstrip":true,"rstrip":true,"single_word":false,"normalized":false,"special":true}],"pre_tokenizer":{"type":"WhitespaceSplit"},)") + kWordLevel + "}");
  // The spaces around <x> are absorbed by it.
  EXPECT_EQ(t->encode("a  <x>  b", false), (std::vector<TokenId>{1, 4, 2}));
  // Every pattern starts with '<': the scan skips to each '<' (a false start, then two matches).
  EXPECT_EQ(t->encode("b <y <x> a<x>", false), (std::vector<TokenId>{2, 0, 4, 1, 4}));
  auto sw = parse(std::string(R"({"added_tokens":[{"id":3,"content":"ab","lstrip":false,"rstrip":false,"single_word":true,"normalized":false,"special":false}],"pre_tokenizer":{"type":"WhitespaceSplit"},)") + kWordLevel + "}");
  EXPECT_EQ(sw->encode("ab", false), (std::vector<TokenId>{3}));
  EXPECT_EQ(sw->encode("x ab", false), (std::vector<TokenId>{0, 3}));
  EXPECT_EQ(sw->encode("aab", false), (std::vector<TokenId>{0}));  // inside a word: not matched
}

TEST(Bpe, BothMergeFormatsAndByteFallback) {
  const char* vocab = R"("vocab":{"<unk>":0,"a":1,"b":2,"ab":3,"abb":4,"<0x63>":5})";
  auto s = parse(std::string(R"({"model":{"type":"BPE","unk_token":"<unk>","byte_fallback":true,)") + vocab + R"(,"merges":["a b","ab b"]}})");
  auto a = parse(std::string(R"({"model":{"type":"BPE","unk_token":"<unk>","byte_fallback":true,)") + vocab + R"(,"merges":[["a","b"],["ab","b"]]}})");
  EXPECT_EQ(s->encode("abbab", false), (std::vector<TokenId>{4, 3}));
  EXPECT_EQ(a->encode("abbab", false), s->encode("abbab", false));
  EXPECT_EQ(s->encode("ac", false), (std::vector<TokenId>{1, 5}));  // 'c' via <0x63>
  EXPECT_EQ(s->encode("ad", false), (std::vector<TokenId>{1, 0}));  // no byte token: unk
}

TEST(Bpe, FuseUnkAndIgnoreMerges) {
  const char* base = R"({"model":{"type":"BPE","unk_token":"<unk>","vocab":{"<unk>":0,"a":1,"b":2,"ab":3,"xyz":4},"merges":["a b"],)";
  auto fused = parse(std::string(base) + R"("fuse_unk":true}})");
  auto plain = parse(std::string(base) + R"("fuse_unk":false}})");
  EXPECT_EQ(fused->encode("qqab", false), (std::vector<TokenId>{0, 3}));
  EXPECT_EQ(plain->encode("qqab", false), (std::vector<TokenId>{0, 0, 3}));
  auto ignore = parse(std::string(base) + R"("ignore_merges":true}})");
  EXPECT_EQ(ignore->encode("xyz", false), (std::vector<TokenId>{4}));  // whole word in vocab
  EXPECT_EQ(plain->encode("xyz", false), (std::vector<TokenId>{0, 0, 0}));  // merges cannot reach it
}

TEST(WordPiece, GreedyLongestMatchAndUnk) {
  auto t = parse(R"({"pre_tokenizer":{"type":"BertPreTokenizer"},"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":10,"vocab":{"[UNK]":0,"un":1,"##aff":2,"##able":3,"!":4}}})");
  EXPECT_EQ(t->encode("unaffable!", false), (std::vector<TokenId>{1, 2, 3, 4}));
  EXPECT_EQ(t->encode("unaffablex", false), (std::vector<TokenId>{0}));
  EXPECT_EQ(t->encode("unaffableunaffable", false), (std::vector<TokenId>{0}));  // > max chars
}

TEST(Components, UnsupportedIsAnErrorNamingIt) {
  auto t = parse_tokenizer_json(std::string(R"({"pre_tokenizer":{"type":"UnicodeScripts"},)") + kWordLevel + "}", "x.json");
  ASSERT_FALSE(t.has_value());
  EXPECT_NE(t.error().message.find("UnicodeScripts"), std::string::npos) << t.error().message;
  auto m = parse_tokenizer_json(R"({"model":{"type":"Mystery"}})", "x.json");
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.error().message.find("Mystery"), std::string::npos);
  EXPECT_FALSE(parse_tokenizer_json("{not json", "x.json").has_value());
}

TEST(Unicode, InvalidUtf8IsReplacedNotFatal) {
  bool changed;
  EXPECT_EQ(sanitize_utf8("a\xFF" "b\xC3", &changed), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD");
  EXPECT_TRUE(changed);
  EXPECT_EQ(to_lower_rust("\xC4\xB0I"), "i\xCC\x87i");  // U+0130 lowercases to two chars
}

TEST(Builtin, KnownIdsAndThreadSafety) {
  auto t = load_tokenizer("builtin");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  EXPECT_EQ((*t)->encode("Hello world", false), (std::vector<TokenId>{13225, 2375}));
  EXPECT_EQ((*t)->encode("<|endoftext|>", false), (std::vector<TokenId>{199999}));
  EXPECT_EQ((*t)->vocab_size(), 200019u);
  // Concurrent encodes agree (per-thread caches).
  std::string text = "The quick brown fox jumps over the lazy dog 12345 😀 日本語";
  auto want = (*t)->encode(text, false);
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int k = 0; k < 200; ++k) bad += (*t)->encode(text + std::to_string(k % 7), false).size() < want.size();
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

}  // namespace
}  // namespace servebench::tokenizer
