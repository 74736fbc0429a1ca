// dataset/random_prompts.h: --prompt-corpus random, prompts of random vocabulary tokens with an
// exact token count, valid UTF-8, reproducible by seed, and free of special and added tokens.
#include "dataset/random_prompts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "dataset/coding_corpus.h"
#include "dataset/exact_prompts.h"
#include "tokenizer/unicode.h"
#include "unit/dataset_exact/corpus_fixture.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

namespace tt = tokenizer::testing;
using tokenizer::TokenId;

std::shared_ptr<const tokenizer::Tokenizer> load(const std::string& spec) {
  return testing::load_tokenizer_or_fail(spec);
}

std::shared_ptr<const tokenizer::Tokenizer> load_family(const std::string& family) {
  const std::string path = tt::family_paths().at(family);
  EXPECT_TRUE(tt::file_exists(path)) << tt::missing_fixture_message(path);
  return load(path);
}

bool is_white(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// Every prompt counts exactly its target, alone or after other text, and is valid UTF-8 without
// replacement characters or white space at its ends.
void expect_exact(const tokenizer::Tokenizer& tok) {
  auto b = ExactPromptBuilder::random_vocabulary(tok);
  ASSERT_TRUE(b) << b.error().message;
  ASSERT_TRUE(b->random_tokens());
  core::Rng rng = core::Rng::stream(42, "random-test");
  const int64_t call_me = static_cast<int64_t>(tok.count("Call me"));
  int checked = 0;
  for (int64_t target : {1, 2, 3, 7, 16, 100, 128, 511, 1000, 2048}) {
    for (int rep = 0; rep < 4; ++rep) {
      const bool cont = rep % 2 == 1;
      auto p = b->build(target, rng, cont);
      ASSERT_EQ(p.tokens, target) << tok.name() << ": " << p.text.substr(0, 200);
      ASSERT_TRUE(tokenizer::is_valid_utf8(p.text)) << tok.name();
      EXPECT_EQ(p.text.find("\xEF\xBF\xBD"), std::string::npos) << tok.name();
      ASSERT_FALSE(p.text.empty());
      EXPECT_FALSE(is_white(p.text.front()) || is_white(p.text.back())) << tok.name();
      if (cont) {
        EXPECT_EQ(static_cast<int64_t>(tok.count("Call me " + p.text)), target + call_me) << tok.name();
      } else {
        ASSERT_EQ(static_cast<int64_t>(tok.count(p.text)), target) << tok.name() << ": " << p.text.substr(0, 200);
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 40);
}

TEST(RandomPrompts, ExactAndValidWithBuiltin) { expect_exact(*load("builtin")); }

TEST(RandomPrompts, ExactAndValidWithRealTokenizerFamilies) {
  for (const char* family : {"qwen3", "llama3", "gpt2", "gemma3", "mistral_legacy", "deepseek_v3", "llama2"}) {
    SCOPED_TRACE(family);
    auto tok = load_family(family);
    ASSERT_TRUE(tok);
    expect_exact(*tok);
  }
}

TEST(RandomPrompts, SameSeedSamePromptsOtherSeedOthers) {
  auto tok = load_family("qwen3");
  ASSERT_TRUE(tok);
  auto b = ExactPromptBuilder::for_corpus("random", "", *tok);
  ASSERT_TRUE(b) << b.error().message;
  core::Rng r1 = core::Rng::stream(7, "p"), r2 = core::Rng::stream(7, "p"), r3 = core::Rng::stream(8, "p");
  for (int i = 0; i < 10; ++i) {
    const std::string a = b->build(300, r1).text;
    EXPECT_EQ(a, b->build(300, r2).text);
    EXPECT_NE(a, b->build(300, r3).text);
  }
  // A second builder (another process, same tokenizer) makes the same prompts.
  auto b2 = ExactPromptBuilder::random_vocabulary(*tok);
  ASSERT_TRUE(b2);
  core::Rng r4 = core::Rng::stream(7, "p"), r5 = core::Rng::stream(7, "p");
  EXPECT_EQ(b->build(64, r4).text, b2->build(64, r5).text);
}

// Drawn from the vocabulary minus added tokens (special or not) and ids that do not decode to
// whole characters; what reaches the server re-encodes without any added token.
TEST(RandomPrompts, TokensComeFromTheVocabularyWithoutSpecialOrAddedTokens) {
  for (const char* family : {"qwen3", "llama3", "deepseek_v3"}) {
    SCOPED_TRACE(family);
    auto tok = load_family(family);
    ASSERT_TRUE(tok);
    auto r = RandomTokenPrompts::create(*tok);
    ASSERT_TRUE(r) << r.error().message;
    const auto& pool = r->pool();
    ASSERT_TRUE(std::is_sorted(pool.begin(), pool.end()));
    size_t added = 0;
    for (size_t id = 0; id < tok->vocab_size(); ++id) added += tok->is_added_token(static_cast<TokenId>(id));
    ASSERT_GT(added, 0u) << "the fixture has added tokens";
    EXPECT_GT(pool.size(), tok->vocab_size() * 9 / 10) << "most of the vocabulary";
    EXPECT_LE(pool.size() + added, tok->vocab_size());
    for (TokenId id : pool) {
      ASSERT_FALSE(tok->is_added_token(id)) << id;
      const std::string s = tok->decode({id}, true);
      ASSERT_TRUE(!s.empty() && tokenizer::is_valid_utf8(s)) << id;
      ASSERT_EQ(s.find("\xEF\xBF\xBD"), std::string::npos) << id;
    }
    core::Rng rng(3);
    for (int i = 0; i < 20; ++i) {
      auto p = r->build(500, rng);
      for (TokenId id : tok->encode(p.text, false)) ASSERT_FALSE(tok->is_added_token(id)) << id << " in " << p.text;
    }
  }
  // The Qwen3 control tokens in particular: special (<|im_start|>) and not (<think>, <tool_call>).
  auto qwen = load_family("qwen3");
  ASSERT_TRUE(qwen);
  auto r = RandomTokenPrompts::create(*qwen);
  ASSERT_TRUE(r);
  for (const char* control : {"<|im_start|>", "<|endoftext|>", "<think>", "<tool_call>"}) {
    const auto ids = qwen->encode(control, false);
    ASSERT_EQ(ids.size(), 1u) << control;
    EXPECT_FALSE(std::binary_search(r->pool().begin(), r->pool().end(), ids[0])) << control;
  }
}

// Prompts differ from each other from their first tokens on (no shared prefix-cache block).
TEST(RandomPrompts, PromptsDiffer) {
  auto tok = load("builtin");
  auto b = ExactPromptBuilder::random_vocabulary(*tok);
  ASSERT_TRUE(b);
  core::Rng rng = core::Rng::stream(1, "conversation.prompt");
  std::unordered_set<std::string> texts;
  std::set<std::vector<TokenId>> first_blocks;
  for (int i = 0; i < 300; ++i) {
    auto p = b->build(40, rng);
    texts.insert(p.text);
    auto ids = tok->encode(p.text, false);
    ids.resize(std::min<size_t>(ids.size(), 8));
    first_blocks.insert(ids);
  }
  EXPECT_EQ(texts.size(), 300u);
  EXPECT_EQ(first_blocks.size(), 300u);
}

// Not corpus text: few of a random prompt's words are words of the prose corpus.
TEST(RandomPrompts, NotCorpusText) {
  auto tok = load("builtin");
  auto b = ExactPromptBuilder::for_corpus("random", "", *tok);
  ASSERT_TRUE(b);
  auto sonnet = ExactPromptBuilder::for_corpus("sonnet", testing::vendored_corpus(), *tok);
  ASSERT_TRUE(sonnet) << sonnet.error().message;
  EXPECT_FALSE(sonnet->random_tokens());
  auto text = corpus_for("random");
  ASSERT_TRUE(text);
  EXPECT_TRUE(text->empty()) << "random has no corpus text";
  std::unordered_set<std::string> corpus_words;
  const std::string& corpus = testing::vendored_corpus();
  for (size_t i = 0; i < corpus.size();) {
    while (i < corpus.size() && is_white(corpus[i])) ++i;
    const size_t start = i;
    while (i < corpus.size() && !is_white(corpus[i])) ++i;
    if (i > start) corpus_words.insert(corpus.substr(start, i - start));
  }
  auto corpus_share = [&](const std::string& t) {
    size_t words = 0, known = 0;
    for (size_t i = 0; i < t.size();) {
      while (i < t.size() && is_white(t[i])) ++i;
      const size_t start = i;
      while (i < t.size() && !is_white(t[i])) ++i;
      if (i == start) continue;
      ++words;
      known += corpus_words.count(t.substr(start, i - start));
    }
    return words ? static_cast<double>(known) / static_cast<double>(words) : 0.0;
  };
  core::Rng r1(5), r2(5);
  EXPECT_LT(corpus_share(b->build(1000, r1).text), 0.3);
  EXPECT_GT(corpus_share(sonnet->build(1000, r2).text), 0.9);
}

// A tokenizer whose ids decode to raw bytes, some of them halves of a two-byte character, with
// one added token: the pool keeps only whole characters and leaves the added token out, so every
// prompt is valid UTF-8 (one token per byte here).
class ByteTokenizer final : public tokenizer::Tokenizer {
 public:
  // ids 0..127: ASCII bytes; 128: "\xC3" (lead byte); 129: "\xA9" (continuation); 130: "é";
  // 131: the added token "<ctl>".
  std::vector<TokenId> encode(std::string_view t, bool) const override {
    std::vector<TokenId> out;
    for (size_t i = 0; i < t.size(); ++i) {
      const auto c = static_cast<unsigned char>(t[i]);
      if (t.substr(i, 5) == "<ctl>") {
        out.push_back(131);
        i += 4;
      } else if (c < 128) {
        out.push_back(c);
      } else if (t.substr(i, 2) == "\xC3\xA9") {
        out.push_back(130);
        ++i;
      } else {
        out.push_back(c == 0xC3 ? 128 : 129);
      }
    }
    return out;
  }
  std::string decode(const std::vector<TokenId>& ids, bool) const override {
    std::string s;
    for (TokenId id : ids) s += id < 128 ? std::string(1, static_cast<char>(id)) : id == 128 ? "\xC3" : id == 129 ? "\xA9" : id == 130 ? "\xC3\xA9" : "<ctl>";
    return s;
  }
  std::string name() const override { return "bytes"; }
  size_t vocab_size() const override { return 132; }
  bool is_added_token(TokenId id) const override { return id == 131; }
};

TEST(RandomPrompts, PartialCharactersAndAddedTokensAreNeverDrawn) {
  ByteTokenizer tok;
  auto r = RandomTokenPrompts::create(tok);
  ASSERT_TRUE(r) << r.error().message;
  const auto& pool = r->pool();
  EXPECT_EQ(std::count(pool.begin(), pool.end(), 128u) + std::count(pool.begin(), pool.end(), 129u) +
                std::count(pool.begin(), pool.end(), 131u),
            0);
  EXPECT_EQ(std::count(pool.begin(), pool.end(), 130u), 1);
  EXPECT_EQ(pool.size(), 129u);
  core::Rng rng(9);
  for (int64_t target : {1, 5, 64, 300}) {
    auto p = r->build(target, rng);
    EXPECT_EQ(p.tokens, target);
    EXPECT_EQ(static_cast<int64_t>(tok.count(p.text)), target);
    EXPECT_TRUE(tokenizer::is_valid_utf8(p.text));
    EXPECT_EQ(p.text.find("<ctl>"), std::string::npos);
  }
}

// Three one-character tokens, two of which spell the special token "<>" when drawn side by side
// (one pair in nine): no prompt may carry it, and every prompt is still exact.
class AngleTokenizer final : public tokenizer::Tokenizer {
 public:
  std::vector<TokenId> encode(std::string_view t, bool) const override {
    std::vector<TokenId> out;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == ' ') continue;  // spaces are free (as when BPE folds them into the next token)
      if (t.substr(i, 2) == "<>") {
        out.push_back(3);
        ++i;
      } else {
        out.push_back(t[i] == '<' ? 1 : t[i] == '>' ? 2 : 0);
      }
    }
    return out;
  }
  std::string decode(const std::vector<TokenId>& ids, bool skip_special) const override {
    std::string s;
    for (TokenId id : ids) s += id == 0 ? "x" : id == 1 ? "<" : id == 2 ? ">" : skip_special ? "" : "<>";
    return s;
  }
  std::string name() const override { return "angles"; }
  size_t vocab_size() const override { return 4; }
  bool is_added_token(TokenId id) const override { return id == 3; }
};

TEST(RandomPrompts, NeighboursSpellingASpecialTokenAreRedrawn) {
  AngleTokenizer tok;
  auto r = RandomTokenPrompts::create(tok);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->pool(), (std::vector<TokenId>{0, 1, 2}));
  core::Rng rng(4);
  for (int i = 0; i < 50; ++i) {
    auto p = r->build(20, rng, i % 2 == 1);
    EXPECT_EQ(p.tokens, 20);
    EXPECT_EQ(p.text.find("<>"), std::string::npos) << p.text;
  }
}

}  // namespace
}  // namespace servebench::dataset
