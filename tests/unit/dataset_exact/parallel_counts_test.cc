// parallel_for hands every index to exactly one call, whatever the thread count; count_threads
// uses one thread for small inputs and never more than the items allow.
#include "dataset/parallel_counts.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace servebench::dataset {
namespace {

TEST(ParallelCounts, EveryIndexIsVisitedOnce) {
  for (size_t n : {0u, 1u, 63u, 64u, 65u, 1000u}) {
    for (unsigned threads : {1u, 3u, 5u}) {
      std::vector<std::atomic<int>> seen(n);
      parallel_for(n, threads, [&](size_t i) { seen[i].fetch_add(1); });
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << "n " << n << " threads " << threads << " i " << i;
    }
  }
}

TEST(ParallelCounts, ThreadsFollowTheItemCount) {
  EXPECT_EQ(count_threads(10, 512), 1u);
  EXPECT_GE(count_threads(1 << 20, 64), 1u);
  EXPECT_LE(count_threads(130, 64), 2u);
}

}  // namespace
}  // namespace servebench::dataset
