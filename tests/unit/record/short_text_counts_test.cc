#include "record/short_text_counts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace servebench::record {
namespace {

// Counts every call it gets, so a test sees which texts reached the tokenizer.
class CountingTokenizer final : public tokenizer::Tokenizer {
 public:
  std::vector<tokenizer::TokenId> encode(std::string_view text, bool) const override {
    ++calls;
    // One token per byte, plus one per space: distinct texts get distinct counts.
    std::vector<tokenizer::TokenId> ids(text.size());
    for (char c : text) {
      if (c == ' ') ids.push_back(0);
    }
    return ids;
  }
  std::string decode(const std::vector<tokenizer::TokenId>&, bool) const override { return {}; }
  std::string name() const override { return "counting"; }
  size_t vocab_size() const override { return 256; }
  mutable int calls = 0;
};

TEST(ShortTextCounts, HitsReturnTheTokenizersCountAndSkipIt) {
  CountingTokenizer tok;
  ShortTextCounts counts(tok);
  EXPECT_EQ(counts.count(" the"), 5u);
  EXPECT_EQ(counts.count(" the"), 5u);
  EXPECT_EQ(counts.count(""), 0u);
  EXPECT_EQ(counts.count(""), 0u);
  EXPECT_EQ(tok.calls, 2);
  EXPECT_EQ(counts.hits(), 2u);
}

TEST(ShortTextCounts, EveryTextGetsItsOwnCountAcrossCollisionsAndLongTexts) {
  CountingTokenizer tok;
  ShortTextCounts counts(tok);
  // Far more texts than slots: collisions replace slots, and a replaced text is counted again.
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 20000; ++i) {
      std::string t = std::to_string(i) + (i % 3 ? " x" : "");
      EXPECT_EQ(counts.count(t), t.size() + (i % 3 ? 1 : 0)) << t;
    }
  }
  const std::string long_text(ShortTextCounts::kMaxBytes + 1, 'a');
  const int before = tok.calls;
  EXPECT_EQ(counts.count(long_text), long_text.size());
  EXPECT_EQ(counts.count(long_text), long_text.size());
  EXPECT_EQ(tok.calls, before + 2);  // never cached
}

}  // namespace
}  // namespace servebench::record
