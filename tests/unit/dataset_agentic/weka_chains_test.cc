// detect_agent_chains: a sub-agent's flattened calls split back into agents by their hash ids.
#include "dataset/loaders/weka_chains.h"

#include <gtest/gtest.h>

namespace servebench::dataset {
namespace {

struct Call {
  double t, end;
  std::vector<int64_t> ids;
};

std::vector<int32_t> chains(const std::vector<Call>& in) {
  std::vector<ChainCall> calls;
  for (const auto& c : in) calls.push_back({c.t, c.end, &c.ids});
  return detect_agent_chains(calls);
}

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

}  // namespace
}  // namespace servebench::dataset
