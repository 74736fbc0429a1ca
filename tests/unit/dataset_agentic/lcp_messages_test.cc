// plan_lcp_messages: weka_trace calls as system/user/assistant messages cut at hash-id LCPs.
#include "dataset/lcp_messages.h"

#include <gtest/gtest.h>

#include <random>

namespace servebench::dataset {
namespace {

using Ids = std::vector<int64_t>;
using Plan = std::vector<PlannedMessage>;

struct Call {
  Ids ids;
  int64_t in;
  int64_t out;
};

std::vector<Plan> plan(const std::vector<Call>& calls, int64_t bs, int64_t prefix = 0) {
  std::vector<LcpCall> c;
  for (const auto& x : calls) c.push_back({&x.ids, x.in, x.out});
  auto r = plan_lcp_messages(c, bs, prefix, "test");
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? *r : std::vector<Plan>{};
}

int64_t tokens(const Plan& p, int64_t bs) {
  int64_t n = 0;
  for (const auto& m : p) n += static_cast<int64_t>(m.hash_ids.size()) * bs + m.tail_tokens;
  return n;
}

TEST(LcpMessages, FirstCallIsOneUserMessageOfItsCoveredBlocksAndTail) {
  const auto p = plan({{{1, 2, 3, 4}, 200, 10}}, 64);  // floor(200/64) = 3 blocks covered, 8 left
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0], (Plan{{"user", {1, 2, 3}, 8}}));
}

TEST(LcpMessages, ToolAndSystemTokensBecomeOneSystemMessageOfWholeBlocks) {
  // 150 prefix tokens = ceil(150/64) = 3 blocks; floor(500/64) = 7 covered; tail 500 - 448 = 52.
  const auto p = plan({{{1, 2, 3, 4, 5, 6, 7}, 500, 10}}, 64, 150);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0], (Plan{{"system", {1, 2, 3}, 0}, {"user", {4, 5, 6, 7}, 52}}));
}

TEST(LcpMessages, AnUncoveredSystemPrefixIsAnErrorNamingTheFix) {
  const Ids ids{1};
  auto r = plan_lcp_messages({{&ids, 100, 1}}, 64, 200, "session 'x'");
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("session 'x'"), std::string::npos);
  EXPECT_NE(r.error().message.find("tool_tokens/system_tokens"), std::string::npos);
}

TEST(LcpMessages, AnExtendingCallKeepsThePreviousMessagesAndAddsReplyThenUser) {
  // Previous: user {1,2} + 4 tail tokens; its reply was 64 tokens = 1 block.
  const auto p = plan({{{1, 2}, 132, 64}, {{1, 2, 3, 4}, 260, 5}}, 64);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1], (Plan{{"user", {1, 2}, 0}, {"assistant", {3}, 0}, {"user", {4}, 4}}));
}

TEST(LcpMessages, APullBackCutsInsideAMessageAndKeepsItsLeadingBlocks) {
  const auto p = plan({{{1, 2, 3}, 3, 2}, {{1, 2, 10, 11, 12}, 5, 1}}, 1);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1], (Plan{{"user", {1, 2}, 0}, {"assistant", {10, 11}, 0}, {"user", {12}, 0}}));
}

TEST(LcpMessages, ACutAtAMessageStartDropsItAndEverythingAfter) {
  // Call 1: user {1,2}, assistant {3}, user {4}. Call 2 shares only {1,2}: both later messages go.
  const auto p = plan({{{1, 2}, 2, 1}, {{1, 2, 3, 4}, 4, 7}, {{1, 2, 9}, 3, 1}}, 1);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[2], (Plan{{"user", {1, 2}, 0}, {"assistant", {9}, 0}}));
}

TEST(LcpMessages, TheReplyTakesAtMostTheNewBlocks) {
  const auto p = plan({{{1}, 64, 1000}, {{1, 2, 3}, 192, 1}}, 64);
  EXPECT_EQ(p[1], (Plan{{"user", {1}, 0}, {"assistant", {2, 3}, 0}}));
  const auto none = plan({{{1}, 64, 0}, {{1, 2}, 128, 1}}, 64);  // no recorded reply: no assistant
  EXPECT_EQ(none[1], (Plan{{"user", {1}, 0}, {"user", {2}, 0}}));
}

// Property over random chains: every plan adds up to the call's input length exactly, and the
// messages wholly before the LCP are the previous call's, unchanged.
TEST(LcpMessages, RandomChainsAreExactAndKeepTheirSharedMessages) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t bs = 1 + static_cast<int64_t>(rng() % 8);
    std::vector<Call> calls;
    Ids ids;
    int64_t next_id = 1;
    for (int k = 0; k < 8; ++k) {
      ids.resize(ids.empty() ? 0 : static_cast<size_t>(rng() % (ids.size() + 1)));
      for (uint64_t n = rng() % 5; n > 0; --n) ids.push_back(next_id++);
      const int64_t in = static_cast<int64_t>(ids.size()) * bs - static_cast<int64_t>(rng() % 3) +
                         static_cast<int64_t>(rng() % (2 * bs));
      calls.push_back({ids, std::max<int64_t>(0, in), static_cast<int64_t>(rng() % (3 * bs))});
    }
    const int64_t prefix = std::min<int64_t>(static_cast<int64_t>(rng() % 3),
                                             std::min<int64_t>(static_cast<int64_t>(calls[0].ids.size()),
                                                               calls[0].in / bs)) * bs;
    const auto plans = plan(calls, bs, prefix);
    ASSERT_EQ(plans.size(), calls.size());
    for (size_t k = 0; k < plans.size(); ++k) {
      EXPECT_EQ(tokens(plans[k], bs), calls[k].in) << "trial " << trial << " call " << k;
      if (k == 0) continue;
      size_t lcp = 0;
      const Ids& a = calls[k - 1].ids;
      const Ids& b = calls[k].ids;
      const auto cov = [&](const Call& c) { return std::min<size_t>(c.ids.size(), static_cast<size_t>(c.in / bs)); };
      while (lcp < std::min(cov(calls[k - 1]), cov(calls[k])) && a[lcp] == b[lcp]) ++lcp;
      size_t cursor = 0;
      for (size_t i = 0; i < plans[k - 1].size(); ++i) {
        cursor += plans[k - 1][i].hash_ids.size();
        if (cursor >= lcp || plans[k - 1][i].tail_tokens > 0) break;
        ASSERT_LT(i, plans[k].size());
        EXPECT_EQ(plans[k][i], plans[k - 1][i]) << "trial " << trial << " call " << k;
      }
    }
  }
}

}  // namespace
}  // namespace servebench::dataset
