#include "shard/start_gate.h"

#include <algorithm>
#include <thread>

#include "core/interrupt.h"

namespace servebench::shard {

StartRecord wait_until(int64_t start_at_wall_ns, const core::Clock& clock) {
  StartRecord r;
  r.start_at_wall_ns = start_at_wall_ns;
  const int64_t begin = clock.now_ns();
  if (start_at_wall_ns > 0) {
    // Wall time read once: the wait runs on the steady clock, so a clock step during the wait
    // does not move the start (the offset at this instant is what the shard recorded).
    const int64_t deadline = begin + (start_at_wall_ns - clock.wall_ns());
    r.late = deadline <= begin;
    while (!core::interrupt_requested()) {
      const int64_t left = deadline - clock.now_ns();
      if (left <= 0) break;
      // Coarse sleeps, then a short spin for the last 200 µs.
      if (left > 200'000)
        std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(left - 150'000, 50'000'000)));
    }
    r.interrupted = core::interrupt_requested();
  }
  r.started_wall_ns = clock.wall_ns();
  r.waited_ns = clock.now_ns() - begin;
  if (start_at_wall_ns > 0) r.skew_ns = r.started_wall_ns - start_at_wall_ns;
  return r;
}

}  // namespace servebench::shard
