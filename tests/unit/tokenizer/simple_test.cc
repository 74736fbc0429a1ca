#include <gtest/gtest.h>

#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

TEST(SimpleTokenizer, CountsWhitespaceSeparatedWords) {
  auto t = load_tokenizer("simple");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ((*t)->count("  hello   world\tfoo\nbar "), 4u);
  EXPECT_EQ((*t)->count(""), 0u);
  auto a = (*t)->encode("alpha beta alpha", false);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0], a[2]);
  EXPECT_NE(a[0], a[1]);
  EXPECT_EQ((*t)->encode("alpha", true), (*t)->encode("alpha", false));
}

TEST(SimpleTokenizer, UnknownSpecIsNotFound) {
  auto t = load_tokenizer("/nonexistent/tokenizer.json");
  ASSERT_FALSE(t.has_value());
  EXPECT_TRUE(t.error().is_usage());
}

}  // namespace
}  // namespace servebench::tokenizer
