#include "dataset/sampling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

namespace servebench::dataset {
namespace {

TEST(Sampling, ParseStrategies) {
  EXPECT_EQ(*parse_sampling_strategy("random"), SamplingStrategy::kRandom);
  EXPECT_EQ(*parse_sampling_strategy("sequential"), SamplingStrategy::kSequential);
  EXPECT_EQ(*parse_sampling_strategy(" Shuffle "), SamplingStrategy::kShuffle);
  for (auto s :
       {SamplingStrategy::kRandom, SamplingStrategy::kSequential, SamplingStrategy::kShuffle})
    EXPECT_EQ(*parse_sampling_strategy(sampling_strategy_name(s)), s);
  for (const char* bad : {"", "rand", "round_robin", "shuffle-cycle"}) {
    auto r = parse_sampling_strategy(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    for (const char* want : {"--dataset-sampling-strategy", "random", "sequential", "shuffle"})
      EXPECT_NE(r.error().message.find(want), std::string::npos) << r.error().message;
  }
}

TEST(Sampling, SequentialWraps) {
  EXPECT_EQ(sample_entries(SamplingStrategy::kSequential, 3, 8, 1),
            (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 1}));
  EXPECT_EQ(sample_entries(SamplingStrategy::kSequential, 1, 3, 1),
            (std::vector<uint32_t>{0, 0, 0}));
}

TEST(Sampling, ShuffleUsesEveryEntryOncePerEpoch) {
  constexpr size_t kEntries = 7, kEpochs = 20;
  auto picks = sample_entries(SamplingStrategy::kShuffle, kEntries, kEntries * kEpochs + 3, 42);
  ASSERT_EQ(picks.size(), kEntries * kEpochs + 3);
  std::set<std::vector<uint32_t>> orders;
  for (size_t e = 0; e < kEpochs; ++e) {
    std::vector<uint32_t> epoch(picks.begin() + e * kEntries, picks.begin() + (e + 1) * kEntries);
    orders.insert(epoch);
    std::sort(epoch.begin(), epoch.end());
    std::vector<uint32_t> all(kEntries);
    std::iota(all.begin(), all.end(), 0u);
    ASSERT_EQ(epoch, all) << "epoch " << e;
  }
  EXPECT_GT(orders.size(), 10u) << "each epoch is reshuffled";
  std::vector<uint32_t> identity(kEntries);
  std::iota(identity.begin(), identity.end(), 0u);
  EXPECT_FALSE(orders.count(identity) == 1 && orders.size() == 1);
}

TEST(Sampling, RandomIsInRangeWithReplacementAndRoughlyUniform) {
  constexpr size_t kEntries = 10, kCount = 100000;
  auto picks = sample_entries(SamplingStrategy::kRandom, kEntries, kCount, 9);
  std::vector<int> hist(kEntries, 0);
  for (uint32_t p : picks) {
    ASSERT_LT(p, kEntries);
    ++hist[p];
  }
  for (int h : hist) EXPECT_NEAR(h, kCount / kEntries, kCount / kEntries / 10);
  // With replacement: some entry repeats inside the first pass of 10 picks, for this seed or
  // the next few (a permutation never would).
  bool repeated = false;
  for (uint64_t seed = 0; seed < 5 && !repeated; ++seed) {
    auto first = sample_entries(SamplingStrategy::kRandom, kEntries, kEntries, seed);
    repeated = std::set<uint32_t>(first.begin(), first.end()).size() < kEntries;
  }
  EXPECT_TRUE(repeated);
}

TEST(Sampling, DeterministicForTheSeed) {
  for (auto s : {SamplingStrategy::kRandom, SamplingStrategy::kShuffle}) {
    EXPECT_EQ(sample_entries(s, 50, 500, 123), sample_entries(s, 50, 500, 123));
    EXPECT_NE(sample_entries(s, 50, 500, 123), sample_entries(s, 50, 500, 124));
  }
  EntrySampler inc(SamplingStrategy::kShuffle, 50, 123);
  for (uint32_t want : sample_entries(SamplingStrategy::kShuffle, 50, 500, 123))
    ASSERT_EQ(inc.next(), want);
}

TEST(Sampling, EmptyDataset) {
  EXPECT_TRUE(sample_entries(SamplingStrategy::kShuffle, 0, 10, 1).empty());
  EXPECT_TRUE(sample_entries(SamplingStrategy::kRandom, 0, 10, 1).empty());
  EXPECT_TRUE(sample_entries(SamplingStrategy::kSequential, 5, 0, 1).empty());
}

}  // namespace
}  // namespace servebench::dataset
