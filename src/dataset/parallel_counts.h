// Runs fn(i) for every i in [0, n) on up to `threads` threads (the calling thread is one; chunks
// of 64 indexes are handed out in order as threads become free). Used to count the texts of large dataset files (a ShareGPT file holds about
// half a million texts) before the workload is built in order. A raised interrupt
// (core::interrupt_requested) stops every slice early; the caller checks it afterwards.
//
// Thread safety: fn must be safe to call from several threads at once for different i.
#pragma once

#include <cstddef>
#include <functional>

namespace servebench::dataset {

// Threads to use for `n` items: 1 below `min_per_thread` items per thread, else up to the
// machine's cores (all of them).
unsigned count_threads(size_t n, size_t min_per_thread = 512);

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& fn);

}  // namespace servebench::dataset
