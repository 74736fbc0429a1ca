#include "core/clock.h"

#include <chrono>

namespace servebench::core {

int64_t SteadyClock::now_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int64_t SteadyClock::wall_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const SteadyClock& SteadyClock::instance() {
  static const SteadyClock clock;
  return clock;
}

WallAnchor WallAnchor::capture(const Clock& clock) {
  // Bracket the wall read with two steady reads and take the midpoint, so the pairing error is
  // at most half the bracket (tens of ns with a TSC clock source).
  const int64_t s0 = clock.now_ns();
  const int64_t w = clock.wall_ns();
  const int64_t s1 = clock.now_ns();
  return WallAnchor{s0 + (s1 - s0) / 2, w};
}

}  // namespace servebench::core
