#include "dataset/parallel_counts.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "core/interrupt.h"

namespace servebench::dataset {

unsigned count_threads(size_t n, size_t min_per_thread) {
  // The cores this process may run on (taskset, cgroup cpusets), else the machine's.
  cpu_set_t set;
  const int allowed = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0;
  const unsigned cores = std::max(1u, allowed > 0 ? static_cast<unsigned>(allowed) : std::thread::hardware_concurrency());
  const size_t by_size = std::max<size_t>(1, n / std::max<size_t>(1, min_per_thread));
  return static_cast<unsigned>(std::min<size_t>(cores, by_size));
}

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& fn) {
  threads = std::max(1u, threads);
  // Chunks handed out from one counter: texts differ in length, so fixed slices leave threads idle.
  constexpr size_t kChunk = 64;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (;;) {
      if (core::interrupt_requested()) return;
      const size_t begin = next.fetch_add(kChunk, std::memory_order_relaxed);
      if (begin >= n) return;
      for (size_t i = begin; i < std::min(n, begin + kChunk); ++i) fn(i);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
}

}  // namespace servebench::dataset
