// detect_agent_chains: a sub-agent's flattened calls split back into agents by their hash ids.
#include "dataset/loaders/weka_chains.h"

#include <gtest/gtest.h>

namespace servebench::dataset {
namespace {

struct Call {
  double t, end;
  std::vector<int64_t> ids;
  int32_t model = 0;
  int64_t out = 100;
};

AgentChains detect(const std::vector<Call>& in, bool same_model = true) {
  std::vector<ChainCall> calls;
  for (const auto& c : in) calls.push_back({c.t, c.end, &c.ids, c.model, 1000, c.out});
  return detect_agent_chains(calls, same_model);
}

std::vector<int32_t> chains(const std::vector<Call>& in) { return detect(in).chain_of; }

using V = std::vector<int32_t>;

TEST(WekaChains, ACallExtendingTheTailAfterItEndedContinuesTheChain) {
  EXPECT_EQ(chains({{0, 1, {1, 2}}, {2, 3, {1, 2, 3}}, {4, 5, {1, 2, 3, 4}}}), (V{0, 0, 0}));
}

TEST(WekaChains, ACallStartedBeforeTheTailEndedIsAnotherAgent) {
  // B starts at 0.5 while A (ends 1) runs: a worker; C extends B, the deeper tail.
  EXPECT_EQ(chains({{0, 1, {1, 2}}, {0.5, 1.5, {1, 2, 3}}, {2, 3, {1, 2, 3, 4}}}), (V{0, 1, 1}));
}

TEST(WekaChains, AShrinkNobodyPullsBackFromIsTheSameAgentAfterACompaction) {
  EXPECT_EQ(chains({{0, 1, {1, 2, 3}}, {2, 3, {1, 2}}, {4, 5, {1, 2, 8}}}), (V{0, 0, 0}));
}

TEST(WekaChains, AShrinkFollowedByAPullBackIsASpawnedAgent) {
  // B forks from A; C later extends A's longer state, so B was another agent.
  EXPECT_EQ(chains({{0, 1, {1, 2, 3}}, {2, 3, {1, 2, 9}}, {4, 5, {1, 2, 3, 4}}}), (V{0, 1, 0}));
}

TEST(WekaChains, CallsWithoutHashIdsStayOnTheMainChainAndWorkersAreNumberedByStart) {
  // Two workers sharing nothing with the main chain, numbered by their first call's start; the
  // call without ids goes to the main chain even while the workers run.
  const V got = chains({{0, 10, {1}}, {3, 4, {30}}, {2, 4, {20}}, {2.5, 3, {}}, {11, 12, {1, 5}}});
  EXPECT_EQ(got, (V{0, 2, 1, 0, 0}));
}

TEST(WekaChains, TheEarliestOfTwoEquallyDeepSeamsIsSplicedTheOtherSpawned) {
  EXPECT_EQ(chains({{0, 1, {1, 2, 3}}, {3, 4, {1, 2, 7}}, {2, 3, {1, 2, 6}}}), (V{0, 1, 0}));
}

TEST(WekaChains, OnlyTheSameModelContinuesAChain) {
  // B extends A after it ended but runs on another model: another agent.
  EXPECT_EQ(chains({{0, 1, {1, 2}, 0}, {2, 3, {1, 2, 3}, 1}, {4, 5, {1, 2, 3, 4}, 0}}), (V{0, 1, 0}));
  EXPECT_EQ(chains({{0, 1, {1, 2}, 0}, {2, 3, {1, 2, 3}, 0}, {4, 5, {1, 2, 3, 4}, 0}}), (V{0, 0, 0}));
  // Without the rule (sub-agents) the model does not matter.
  EXPECT_EQ(detect({{0, 1, {1, 2}, 0}, {2, 3, {1, 2, 3}, 1}, {4, 5, {1, 2, 3, 4}, 0}}, false).chain_of, (V{0, 0, 0}));
}

TEST(WekaChains, ForksReportTheCallTheyForkedFrom) {
  // B starts while A runs and shares its blocks: forked from call 0; C shares as much with B's
  // longer tail: forked from call 1; D shares nothing: no fork source.
  const AgentChains got = detect({{0, 5, {1, 2}}, {1, 2, {1, 2, 3}}, {1.5, 2, {1, 2, 4}}, {2, 3, {9}}});
  EXPECT_EQ(got.chain_of, (V{0, 1, 2, 3}));
  EXPECT_EQ(got.fork_from, (std::vector<int64_t>{-1, 0, 1, -1}));
  EXPECT_EQ(got.preamble, -1);
}

TEST(WekaChains, ASmallPrefixDisjointFirstCallIsAPreambleOnTheMainChain) {
  // The title call (out 20) shares no leading block: set aside, so the session that follows is
  // the main chain (without the rule, X would found it and the session would be a worker).
  const std::vector<Call> calls = {{0, 0.5, {90}, 0, 20}, {0.1, 1, {1, 2}}, {2, 3, {1, 2, 3}}};
  const AgentChains got = detect(calls);
  EXPECT_EQ(got.chain_of, (V{0, 0, 0}));
  EXPECT_EQ(got.preamble, 0);
  EXPECT_EQ(got.fork_from.size(), 1u);
}

TEST(WekaChains, ALargeFirstCallIsAPreambleOnlyWhenItSharesNoBlockAtAll) {
  // out 500 > 64: a preamble when fully disjoint; not when a later call re-uses its block 90.
  EXPECT_EQ(detect({{0, 0.5, {90}, 0, 500}, {0.1, 1, {1, 2}}, {2, 3, {1, 2, 3}}}).preamble, 0);
  const AgentChains kept = detect({{0, 0.5, {90}, 0, 500}, {0.1, 1, {1, 2}}, {2, 3, {1, 2, 90}}});
  EXPECT_EQ(kept.preamble, -1);
  EXPECT_EQ(kept.chain_of, (V{0, 1, 1}));
  // A first call sharing its leading block with another is never a preamble, however small.
  EXPECT_EQ(detect({{0, 0.5, {1}, 0, 5}, {2, 3, {1, 2}}}).preamble, -1);
}

TEST(WekaChains, TheFirstHashedCallJoinsLeadingCallsWithoutIds) {
  EXPECT_EQ(chains({{0, 0.1, {}}, {0.5, 1, {1, 2}}, {2, 3, {1, 2, 3}}}), (V{0, 0, 0}));
}

}  // namespace
}  // namespace servebench::dataset
