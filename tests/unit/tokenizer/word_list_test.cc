// Every word of servebench-mock's fixed output vocabulary is exactly one token under builtin and
// every tokenizer family we test, and concatenated output re-tokenizes to one token per word.
#include <gtest/gtest.h>

#include "mock-server/word_list.h"
#include "tokenizer/fixtures.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

class WordList : public ::testing::TestWithParam<std::string> {};

TEST_P(WordList, EveryWordIsOneToken) {
  const std::string& family = GetParam();
  std::string spec = family == "builtin" ? "builtin" : testing::family_paths().at(family);
  if (family != "builtin" && !testing::file_exists(spec)) FAIL() << testing::missing_fixture_message(spec);
  auto tok = load_tokenizer(spec);
  ASSERT_TRUE(tok.has_value()) << tok.error().message;
  const Tokenizer& t = **tok;
  const auto& words = mock::mock_word_list();
  ASSERT_GE(words.size(), 100u);
  // In running text (after a sentence), each word adds exactly one token: SentencePiece layouts
  // that prepend "▁" to the whole input still see " the" as "▁the" there.
  const std::string prefix = "Call me Ishmael.";
  const size_t base = t.count(prefix);
  std::string all = prefix;
  for (const std::string& w : words) {
    EXPECT_EQ(t.count(prefix + w), base + 1) << family << ": '" << w << "' is not one token in context";
    all += w;
  }
  EXPECT_EQ(t.count(all), base + words.size()) << family << ": concatenated words do not re-tokenize 1:1";
}

INSTANTIATE_TEST_SUITE_P(Families, WordList,
                         ::testing::Values("builtin", "qwen3", "llama3", "gpt4o", "gpt2", "deepseek_v3",
                                           "gemma3", "mistral_legacy", "llama2", "llama2_metaspace", "bert",
                                           "unigram"));

}  // namespace
}  // namespace servebench::tokenizer
