#include "dataset/loaders/csv.h"

#include <gtest/gtest.h>

namespace servebench::dataset {
namespace {

std::vector<std::vector<std::string>> all_rows(std::string_view text) {
  CsvReader r(text);
  std::vector<std::string_view> f;
  std::vector<std::vector<std::string>> out;
  while (r.next_row(&f)) out.emplace_back(f.begin(), f.end());
  return out;
}

TEST(Csv, PlainAndQuotedFields) {
  auto rows = all_rows("a,b,c\r\n1,\"x, \"\"y\"\"\",3\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"1", "x, \"y\"", "3"}));
}

TEST(Csv, QuotedNewlineAndLineNumbers) {
  CsvReader r("h\n\"multi\nline\"\nnext\n");
  std::vector<std::string_view> f;
  ASSERT_TRUE(r.next_row(&f));
  EXPECT_EQ(r.line(), 1);
  ASSERT_TRUE(r.next_row(&f));
  EXPECT_EQ(f[0], "multi\nline");
  EXPECT_EQ(r.line(), 2);
  ASSERT_TRUE(r.next_row(&f));
  EXPECT_EQ(f[0], "next");
  EXPECT_EQ(r.line(), 4);
  EXPECT_FALSE(r.next_row(&f));
}

TEST(Csv, EmptyFieldsAndNoTrailingNewline) {
  auto rows = all_rows(",,\nx");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"x"}));
}

}  // namespace
}  // namespace servebench::dataset
