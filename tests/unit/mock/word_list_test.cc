#include "word_list.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace servebench::mock {
namespace {

std::string source_dir() {
  const char* d = std::getenv("SERVEBENCH_SOURCE_DIR");
  return d != nullptr ? d : ".";
}

TEST(WordList, TwoHundredUniqueSpacePrefixedLowercaseWords) {
  const auto& words = mock_word_list();
  EXPECT_EQ(words.size(), 200u);
  std::set<std::string> seen;
  for (const std::string& w : words) {
    ASSERT_GE(w.size(), 2u) << "'" << w << "'";
    EXPECT_EQ(w[0], ' ') << w;
    for (size_t i = 1; i < w.size(); ++i) {
      EXPECT_TRUE(w[i] >= 'a' && w[i] <= 'z') << "'" << w << "'";
    }
    EXPECT_LE(w.size(), 9u) << w;  // short, very common words only
    EXPECT_TRUE(seen.insert(w).second) << "duplicate " << w;
  }
  EXPECT_EQ(words.front(), " the");
}

TEST(WordList, EveryWordOccursInTheCorpus) {
  std::ifstream in(source_dir() + "/data/corpus/mobydick.txt");
  ASSERT_TRUE(in) << "set SERVEBENCH_SOURCE_DIR";
  std::ostringstream ss;
  ss << in.rdbuf();
  std::set<std::string> corpus_words;
  std::string word;
  for (char c : ss.str() + " ") {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word.push_back(static_cast<char>(c | 0x20));
    } else if (!word.empty()) {
      corpus_words.insert(word);
      word.clear();
    }
  }
  for (const std::string& w : mock_word_list()) {
    EXPECT_TRUE(corpus_words.count(w.substr(1))) << w;
  }
}

}  // namespace
}  // namespace servebench::mock
