#include "dataset/exact_prompts.h"

#include <gtest/gtest.h>

#include "dataset/synthetic_prompts.h"
#include "unit/dataset_exact/corpus_fixture.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

namespace tt = tokenizer::testing;

const std::string& corpus() { return testing::vendored_corpus(); }

std::shared_ptr<const tokenizer::Tokenizer> load(const std::string& spec) {
  return testing::load_tokenizer_or_fail(spec);
}

// Every prompt re-encodes to exactly its target, for targets from 1 to long prompts, opening a
// prompt or following other text.
void expect_exact(const tokenizer::Tokenizer& tok, bool expect_no_verification) {
  ASSERT_FALSE(corpus().empty());
  auto b = ExactPromptBuilder::create(corpus(), tok);
  ASSERT_TRUE(b) << b.error().message;
  if (expect_no_verification) {
    EXPECT_FALSE(b->verifying_all()) << tok.name();
  }
  core::Rng rng = core::Rng::stream(42, "test");
  int checked = 0;
  for (int64_t target : {1, 2, 3, 7, 16, 100, 128, 511, 512, 1000, 2048}) {
    for (int rep = 0; rep < 6; ++rep) {
      const bool cont = rep % 2 == 1;
      auto p = b->build(target, rng, cont);
      ASSERT_EQ(p.tokens, target);
      if (cont) {
        EXPECT_EQ(static_cast<int64_t>(tok.count("Call me " + p.text)), target + static_cast<int64_t>(tok.count("Call me")))
            << tok.name() << " target " << target;
      } else {
        ASSERT_EQ(static_cast<int64_t>(tok.count(p.text)), target) << tok.name() << ": " << p.text;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 66);
}

TEST(ExactPrompts, BuiltinO200k) { expect_exact(*load("builtin"), true); }

TEST(ExactPrompts, RealTokenizerFamilies) {
  for (const char* family : {"qwen3", "llama3", "gpt2", "gemma3", "mistral_legacy"}) {
    const std::string path = tt::family_paths().at(family);
    ASSERT_TRUE(tt::file_exists(path)) << tt::missing_fixture_message(path);
    SCOPED_TRACE(family);
    auto tok = load(path);
    ASSERT_TRUE(tok);
    expect_exact(*tok, true);
  }
}

TEST(ExactPrompts, SameSeedSamePrompts) {
  auto tok = load("builtin");
  auto b = ExactPromptBuilder::create(corpus(), *tok);
  ASSERT_TRUE(b);
  core::Rng r1 = core::Rng::stream(7, "p"), r2 = core::Rng::stream(7, "p");
  for (int i = 0; i < 20; ++i) EXPECT_EQ(b->build(300, r1).text, b->build(300, r2).text);
}

TEST(ExactPrompts, NonAdditiveTokenizerFallsBackToVerifiedRepair) {
  // A tokenizer that counts characters / 3 (not additive over pieces): the sample check must
  // notice and every prompt must then be verified and repaired to its target.
  class Chars3 : public tokenizer::Tokenizer {
   public:
    std::vector<tokenizer::TokenId> encode(std::string_view t, bool) const override {
      return std::vector<tokenizer::TokenId>((t.size() + 2) / 3, 1);
    }
    std::string decode(const std::vector<tokenizer::TokenId>&, bool) const override { return ""; }
    std::string name() const override { return "chars3"; }
    size_t vocab_size() const override { return 2; }
  } tok;
  auto b = ExactPromptBuilder::create(corpus(), tok);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE(b->verifying_all());
  core::Rng rng(1);
  int exact = 0;
  for (int i = 0; i < 20; ++i) {
    auto p = b->build(50 + i, rng);
    EXPECT_EQ(static_cast<int64_t>(tok.count(p.text)), p.tokens);
    exact += p.tokens == 50 + i;
  }
  EXPECT_GE(exact, 15);
}

// Pieces are the whitespace-separated words of at most 64 bytes (C-locale spaces only), found
// the same way wherever they fall against the scanner's 64-byte steps: checked against a plain
// byte-by-byte split on random texts of words around 64 bytes (the simple tokenizer counts
// every word as one token, so every split word is a piece).
TEST(ExactPrompts, PiecesAreTheShortWordsAtAnyAlignment) {
  auto simple = load("simple");
  ASSERT_TRUE(simple);
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  const std::string word_bytes = "ab\xc3\xa9\x1f\x08\x0e\x7fz";
  const std::string space_bytes = " \t\n\v\f\r";
  core::Rng rng(17);
  for (int round = 0; round < 40; ++round) {
    std::string text = round % 2 ? "" : " ";
    const size_t target = 64 * (1 + rng.next_below(8)) + (round % 3 ? rng.next_below(64) : 0);
    while (text.size() < target) {
      const size_t len = 1 + rng.next_below(round % 4 == 0 ? 8 : 70);
      for (size_t i = 0; i < len; ++i) text.push_back(word_bytes[rng.next_below(word_bytes.size())]);
      const size_t gap = 1 + rng.next_below(3);
      for (size_t i = 0; i < gap; ++i) text.push_back(space_bytes[rng.next_below(space_bytes.size())]);
    }
    text.resize(target);
    if (text.find("a") == std::string::npos) text += " a";
    size_t expected = 0;
    for (size_t i = 0; i < text.size();) {
      while (i < text.size() && is_space(text[i])) ++i;
      const size_t start = i;
      while (i < text.size() && !is_space(text[i])) ++i;
      if (i > start && i - start <= 64) ++expected;
    }
    ExactPromptOptions o;
    o.use_count_cache = false;
    auto b = ExactPromptBuilder::create(text, *simple, o);
    if (expected == 0) {
      EXPECT_FALSE(b);
      continue;
    }
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->piece_count(), expected) << "round " << round << ", " << text.size() << " bytes";
  }
}

}  // namespace
}  // namespace servebench::dataset
