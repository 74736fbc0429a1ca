#include "dataset/parallel_counts.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "core/interrupt.h"

namespace servebench::dataset {

unsigned count_threads(size_t n, size_t min_per_thread) {
  const unsigned cores = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  const size_t by_size = std::max<size_t>(1, n / std::max<size_t>(1, min_per_thread));
  return static_cast<unsigned>(std::min<size_t>(cores, by_size));
}

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& fn) {
  threads = std::max(1u, threads);
  auto slice = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if ((i & 255) == 0 && core::interrupt_requested()) return;
      fn(i);
    }
  };
  const size_t per = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    const size_t begin = std::min(n, per * t), end = std::min(n, per * (t + 1));
    if (begin < end) pool.emplace_back(slice, begin, end);
  }
  slice(0, std::min(n, per));
  for (auto& th : pool) th.join();
}

}  // namespace servebench::dataset
