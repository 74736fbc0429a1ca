// timer_lateness: how late EventLoop timers fire on this machine (the floor under servebench's
// schedule lag). Schedules N timers at a fixed spacing on one loop thread and reports the
// lateness (fire time - due time) distribution. Run pinned: taskset -c 0 timer_lateness.
//
//   timer_lateness [count=20000] [spacing_us=100]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "transport/event_loop.h"

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int64_t spacing_ns = (argc > 2 ? std::atoll(argv[2]) : 100) * 1000;
  const auto& clock = servebench::core::SteadyClock::instance();
  auto loop = servebench::transport::EventLoop::create(clock);
  if (!loop) return 3;
  std::vector<int64_t> late;
  late.reserve(count);
  const int64_t t0 = clock.now_ns() + 1'000'000;
  for (int i = 0; i < count; ++i) {
    const int64_t due = t0 + i * spacing_ns;
    (*loop)->add_timer(due, [&, due] {
      late.push_back(clock.now_ns() - due);
      if (static_cast<int>(late.size()) == count) (*loop)->request_stop();
    });
  }
  (*loop)->run();
  std::sort(late.begin(), late.end());
  auto pct = [&](double p) { return late[std::min<size_t>(late.size() - 1, static_cast<size_t>(p * late.size()))] / 1000.0; };
  std::printf("timers=%d spacing_us=%lld lateness_us p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f max=%.1f\n", count,
              static_cast<long long>(spacing_ns / 1000), pct(0.5), pct(0.9), pct(0.99), pct(0.999),
              late.back() / 1000.0);
  return 0;
}
