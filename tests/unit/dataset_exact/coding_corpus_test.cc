// dataset/coding_corpus.h: the generated coding corpus behind --prompt-corpus coding.
#include "dataset/coding_corpus.h"

#include <gtest/gtest.h>

#include "dataset/exact_prompts.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {
namespace {

TEST(CodingCorpus, HoldsCodeAndToolOutputOfEveryKind) {
  const std::string_view c = coding_corpus();
  EXPECT_GE(c.size(), 290'000u);
  EXPECT_LE(c.size(), 320'000u);
  for (const char* marker : {"    def ", "class ", "raise ", "std::", "$ ls -la", "$ pytest", "passed,",
                             "$ git status", "{\"id\": \"", "Traceback (most recent call last):", "diff --git a/",
                             "@@ -", "Z INFO"})
    EXPECT_NE(c.find(marker), std::string_view::npos) << marker;
  EXPECT_EQ(c.find("Ishmael"), std::string_view::npos) << "not the prose corpus";
}

TEST(CodingCorpus, IsTheSameTextEveryTime) {
  auto a = corpus_for("coding");
  auto b = corpus_for("coding");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(*a, std::string(coding_corpus()));
  auto prose = corpus_for("sonnet");
  ASSERT_TRUE(prose) << prose.error().message;
  EXPECT_NE(*prose, *a);
  auto unset = corpus_for("");
  ASSERT_TRUE(unset);
  EXPECT_EQ(*unset, *prose);
}

TEST(CodingCorpus, PromptsFromItHaveExactLengths) {
  auto tok = tokenizer::load_tokenizer("builtin");
  ASSERT_TRUE(tok) << tok.error().message;
  ExactPromptOptions no_cache;
  no_cache.use_count_cache = false;
  auto builder = ExactPromptBuilder::create(coding_corpus(), **tok, no_cache);
  ASSERT_TRUE(builder) << builder.error().message;
  core::Rng rng(11);
  for (int64_t n : {1, 7, 100, 550, 3000}) {
    auto p = builder->build(n, rng);
    EXPECT_EQ(p.tokens, n);
    EXPECT_EQ(static_cast<int64_t>((*tok)->count(p.text)), n) << p.text.substr(0, 80);
  }
}

}  // namespace
}  // namespace servebench::dataset
