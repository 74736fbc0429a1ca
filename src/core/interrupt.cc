#include "core/interrupt.h"

#include <atomic>

namespace servebench::core {
namespace {
std::atomic<int> g_signal{0};
}  // namespace

void request_interrupt(int signal_number) {
  int expected = 0;
  g_signal.compare_exchange_strong(expected, signal_number == 0 ? -1 : signal_number);
}
bool interrupt_requested() { return g_signal.load(std::memory_order_relaxed) != 0; }
int interrupt_signal() {
  const int s = g_signal.load(std::memory_order_relaxed);
  return s < 0 ? 0 : s;
}
void reset_interrupt_for_test() { g_signal.store(0); }

}  // namespace servebench::core
