// Error summary groups: per-request details in messages fold into one group.
#include "metrics/error_groups.h"

#include <gtest/gtest.h>

#include <string>

namespace servebench::metrics {
namespace {

TEST(ErrorGroupsTest, NormalisesIdsUuidsHexAndLongNumbers) {
  EXPECT_EQ(normalize_error_message("malformed event: {\"id\":\"chatcmpl-9f2c01ab77e64d1c\","
                                    "\"created\":1733000000"),
            "malformed event: {\"id\":\"chatcmpl-<id>\",\"created\":<n>");
  EXPECT_EQ(normalize_error_message("request 123e4567-e89b-12d3-a456-426614174000 failed"),
            "request <uuid> failed");
  EXPECT_EQ(normalize_error_message("digest 3f786850e387550fdab836ed7e6dc881de23001b"),
            "digest <id>");
  // Kept: words, short numbers, letter-only tokens.
  const std::string keep =
      "HTTP 500: internal error (Authorization: Bearer sk-abcdefghijklmnopqrstuv) after 30 s";
  EXPECT_EQ(normalize_error_message(keep), keep);
  EXPECT_EQ(normalize_error_message(""), "");
}

TEST(ErrorGroupsTest, SixtyThreeMalformedSseErrorsWithDifferentIdsAreOneGroup) {
  ErrorGroups g;
  for (int i = 0; i < 63; ++i) {
    g.add(0, "malformed_sse",
          "invalid JSON in event: {\"id\":\"chatcmpl-" + std::to_string(1000000 + i * 7919) +
              "a7f\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\"");
  }
  g.add(500, "http_status", "HTTP 500: overloaded");
  const auto groups = g.groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].count, 63);
  EXPECT_EQ(groups[0].type, "malformed_sse");
  EXPECT_NE(groups[0].message.find("chatcmpl-<id>"), std::string::npos);
  EXPECT_EQ(groups[1].code, 500);
  const auto kinds = g.by_kind();
  ASSERT_EQ(kinds.size(), 2u);
  EXPECT_EQ(kinds[0], (std::pair<std::string, int64_t>{"http_status", 1}));
  EXPECT_EQ(kinds[1], (std::pair<std::string, int64_t>{"malformed_sse", 63}));
}

TEST(ErrorGroupsTest, KindAndCodeStaySeparate) {
  ErrorGroups g;
  g.add(500, "http_status", "boom");
  g.add(503, "http_status", "boom");
  g.add(0, "stream_reset", "boom");
  EXPECT_EQ(g.groups().size(), 3u);
}

TEST(ErrorGroupsTest, MergeEqualsOneAccumulation) {
  ErrorGroups all, a, b;
  for (int i = 0; i < 120; ++i) {
    const std::string msg = "failure " + std::to_string(i % 70);  // 70 distinct, kept apart
    all.add(500, "http_status", msg);
    (i % 2 ? a : b).add(500, "http_status", msg);
  }
  a.merge(std::move(b));
  const auto x = a.groups(), y = all.groups();
  ASSERT_EQ(x.size(), y.size());
  ASSERT_EQ(x.size(), kMaxErrorGroups + 1);  // capped, plus "(other messages)"
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].message, y[i].message);
    EXPECT_EQ(x[i].count, y[i].count);
  }
}

TEST(ErrorGroupsTest, TrackedGroupsAreBounded) {
  ErrorGroups g;
  for (size_t i = 0; i < kMaxTrackedErrorGroups + 100; ++i) {
    g.add(0, "other", "x" + std::string(i % 26 + 1, 'a') + std::string(i / 26 + 1, 'b'));
  }
  int64_t total = 0;
  for (const auto& e : g.groups()) total += e.count;
  EXPECT_EQ(total, static_cast<int64_t>(kMaxTrackedErrorGroups + 100));
  EXPECT_LT(g.memory_bytes(), (kMaxTrackedErrorGroups + 10) * 400);
}

}  // namespace
}  // namespace servebench::metrics
