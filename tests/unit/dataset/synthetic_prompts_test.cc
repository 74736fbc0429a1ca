#include "dataset/synthetic_prompts.h"

#include <stdlib.h>

#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include "core/env.h"
#include "core/interrupt.h"
#include "dataset/embedded_corpus.h"

namespace servebench::dataset {
namespace {

const std::string& corpus() {
  static const std::string text = [] {
    auto c = load_corpus(default_corpus_path());
    return c ? *c : std::string();
  }();
  return text;
}

std::shared_ptr<const tokenizer::Tokenizer> simple() { return *tokenizer::load_tokenizer("simple"); }

TEST(SyntheticPrompts, CorpusIsFound) { ASSERT_GT(corpus().size(), 1'000'000u); }

TEST(SyntheticPrompts, FixedLengthHitsTheTargetWithTheSimpleTokenizer) {
  SyntheticPromptOptions o;
  o.num_entries = 20;
  o.isl_mean_tokens = 128;
  o.seed = 5;
  auto r = build_synthetic_prompts(corpus(), *simple(), o);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 20u);
  for (const auto& p : *r) {
    EXPECT_EQ(p.input_tokens, 128);
    EXPECT_EQ(simple()->count(p.text), 128u);
    EXPECT_EQ(p.max_output_tokens, -1);
  }
  EXPECT_NE((*r)[0].text, (*r)[1].text);  // different start offsets
}

TEST(SyntheticPrompts, SameSeedSamePromptsAndLengthsFollowStddev) {
  SyntheticPromptOptions o;
  o.num_entries = 400;
  o.isl_mean_tokens = 100;
  o.isl_stddev_tokens = 20;
  o.osl_mean_tokens = 50;
  o.osl_stddev_tokens = 5;
  o.seed = 9;
  auto a = build_synthetic_prompts(corpus(), *simple(), o);
  auto b = build_synthetic_prompts(corpus(), *simple(), o);
  ASSERT_TRUE(a && b);
  double sum = 0, sq = 0, osl = 0;
  for (size_t i = 0; i < a->size(); ++i) {
    EXPECT_EQ((*a)[i].text, (*b)[i].text);
    sum += (*a)[i].input_tokens;
    sq += double((*a)[i].input_tokens) * (*a)[i].input_tokens;
    osl += (*a)[i].max_output_tokens;
    EXPECT_GE((*a)[i].max_output_tokens, 1);
  }
  const double n = a->size(), mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
  EXPECT_NEAR(mean, 100, 3);
  EXPECT_NEAR(sd, 20, 3);
  EXPECT_NEAR(osl / n, 50, 1.5);
  o.seed = 10;
  auto c = build_synthetic_prompts(corpus(), *simple(), o);
  EXPECT_NE((*a)[0].text, (*c)[0].text);
}

// A tokenizer with about two tokens per word: lengths still land on or just under the target.
class HalfWordTokenizer final : public tokenizer::Tokenizer {
 public:
  std::vector<tokenizer::TokenId> encode(std::string_view text, bool) const override {
    std::vector<tokenizer::TokenId> ids;
    size_t chars = 0;
    for (char ch : text)
      if (!std::isspace(static_cast<unsigned char>(ch)) && ++chars % 3 == 0) ids.push_back(1);
    return ids;
  }
  std::string decode(const std::vector<tokenizer::TokenId>&, bool) const override { return ""; }
  std::string name() const override { return "chars/3"; }
  size_t vocab_size() const override { return 1; }
};

TEST(SyntheticPrompts, OtherTokenizersLandCloseBelowTheTarget) {
  HalfWordTokenizer tok;
  SyntheticPromptOptions o;
  o.num_entries = 10;
  o.isl_mean_tokens = 300;
  auto r = build_synthetic_prompts(corpus(), tok, o);
  ASSERT_TRUE(r);
  for (const auto& p : *r) {
    EXPECT_LE(p.input_tokens, 300);
    EXPECT_GE(p.input_tokens, 290);
  }
}

TEST(SyntheticPrompts, DefaultCorpusIsTheEmbeddedCopyOfTheVendoredFile) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  ASSERT_TRUE(src);
  auto file = load_corpus(std::string(src) + "/data/corpus/mobydick.txt");
  ASSERT_TRUE(file) << file.error().message;
  EXPECT_EQ(default_corpus_path(), "") << "no SERVEBENCH_CORPUS in the test environment";
  EXPECT_EQ(embedded_corpus(), *file) << "the binary embeds data/corpus/mobydick.txt byte for byte";
  EXPECT_EQ(corpus(), *file);
}

TEST(SyntheticPrompts, CorpusVariableReplacesTheEmbeddedCorpus) {
  const std::string path = ::testing::TempDir() + "/sb_corpus_override.txt";
  std::ofstream(path) << "a tiny corpus of words";
  ::setenv("SERVEBENCH_CORPUS", path.c_str(), 1);
  core::reload_env_for_test();
  const std::string chosen = default_corpus_path();
  auto c = load_corpus(chosen);
  ::unsetenv("SERVEBENCH_CORPUS");
  core::reload_env_for_test();
  EXPECT_EQ(chosen, path);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(*c, "a tiny corpus of words");
  auto dev = load_corpus("/dev/zero");
  ASSERT_FALSE(dev);
  EXPECT_NE(dev.error().message.find("SERVEBENCH_CORPUS"), std::string::npos) << dev.error().message;
}

TEST(SyntheticPrompts, StopWhenInterrupted) {
  auto tok = simple();
  SyntheticPromptOptions o;
  o.num_entries = 5;
  o.isl_mean_tokens = 50;
  core::request_interrupt(15);
  auto r = build_synthetic_prompts(corpus(), *tok, o);
  core::reset_interrupt_for_test();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInterrupted);
  EXPECT_FALSE(r.error().is_usage());
}

TEST(SyntheticPrompts, MissingCorpusIsANotFoundError) {
  auto r = load_corpus("/nonexistent/corpus.txt");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace servebench::dataset
