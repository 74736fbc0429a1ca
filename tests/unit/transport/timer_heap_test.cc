#include "transport/timer_heap.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace servebench::transport {
namespace {

// The load's pattern: a periodic timer due soon holds the top while every request adds a
// timeout due far ahead and cancels it. The cancelled entries never reach the top, so only the
// compaction bounds the heap; the pending ones still come out in due order.
TEST(TimerHeap, CancelledEntriesBelowTheTopStayBounded) {
  TimerHeap heap;
  std::set<uint64_t> pending;
  const auto is_pending = [&pending](uint64_t id) { return pending.count(id) > 0; };
  uint64_t seq = 0;
  heap.push({1, ++seq, 1});  // the periodic tick, always earliest
  pending.insert(1);
  size_t largest = 0;
  for (uint64_t id = 2; id < 100'002; ++id) {
    heap.push({1'000'000 + static_cast<int64_t>(id), ++seq, id});
    pending.insert(id);
    if (id % 1000 != 0) {  // every thousandth request stays in flight
      pending.erase(id);
      heap.cancelled(is_pending);
    }
    largest = std::max(largest, heap.size());
  }
  const size_t live = pending.size();
  EXPECT_EQ(live, 101u);
  EXPECT_LE(largest, 2 * live + 2 * TimerHeap::kMinCompact + 2) << "cancelled entries piled up";
  std::vector<uint64_t> order;
  while (!heap.empty()) {
    const TimerHeap::Entry top = heap.top();
    const bool was_cancelled = !is_pending(top.id);
    heap.pop(was_cancelled);
    if (!was_cancelled) order.push_back(top.id);
  }
  EXPECT_EQ(heap.cancelled_entries(), 0u);
  ASSERT_EQ(order.size(), live);
  EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));  // ids were added in due order
}

// Random due times with ties, random cancellations (some compacting, some popped from the top):
// the pending timers come out by due time, ties in creation order, exactly once each.
TEST(TimerHeap, PendingTimersPopInDueThenCreationOrder) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 20; ++round) {
    TimerHeap heap;
    std::set<uint64_t> pending;
    const auto is_pending = [&pending](uint64_t id) { return pending.count(id) > 0; };
    std::vector<TimerHeap::Entry> added;
    for (uint64_t id = 1; id <= 2000; ++id) {
      const TimerHeap::Entry e{static_cast<int64_t>(rng() % 50), id, id};
      heap.push(e);
      pending.insert(id);
      added.push_back(e);
      if (rng() % 3 != 0) {
        const uint64_t victim = 1 + rng() % id;
        if (pending.erase(victim) > 0) heap.cancelled(is_pending);
      }
    }
    std::vector<TimerHeap::Entry> want;
    for (const auto& e : added) {
      if (pending.count(e.id)) want.push_back(e);
    }
    std::sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return b > a; });
    std::vector<uint64_t> got;
    while (!heap.empty()) {
      const uint64_t id = heap.top().id;
      heap.pop(!is_pending(id));
      if (is_pending(id)) got.push_back(id);
    }
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i].id) << "round " << round;
    EXPECT_EQ(heap.cancelled_entries(), 0u);
  }
}

}  // namespace
}  // namespace servebench::transport
