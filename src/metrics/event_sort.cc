#include "metrics/event_sort.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace servebench::metrics {
namespace {

bool event_less(const SweepEvent& a, const SweepEvent& b) {
  if (a.t != b.t) return a.t < b.t;
  if ((a.delta > 0) != (b.delta > 0)) return b.delta > 0;
  return a.delta < b.delta;
}

// Unsigned image of a double that orders as the double does (-0 and +0 are made equal first).
uint64_t order_key(double t) {
  if (t == 0) t = 0;
  uint64_t u;
  std::memcpy(&u, &t, sizeof u);
  return (u >> 63) != 0 ? ~u : (u | (uint64_t{1} << 63));
}

struct Keyed {
  uint64_t key;
  SweepEvent e;
};

constexpr size_t kSmall = 512;  // below this, a comparison sort is as fast
constexpr int kDigitBits = 16;
constexpr size_t kBuckets = size_t{1} << kDigitBits;

// One stable counting pass on digit `d`; false (and nothing moved) when every key shares it.
bool radix_pass(std::vector<Keyed>* from, std::vector<Keyed>* to, int d,
                std::vector<uint32_t>* count) {
  const int shift = d * kDigitBits;
  std::fill(count->begin(), count->end(), 0);
  for (const Keyed& k : *from) ++(*count)[(k.key >> shift) & (kBuckets - 1)];
  if ((*count)[(from->front().key >> shift) & (kBuckets - 1)] == from->size()) return false;
  uint32_t sum = 0;
  for (uint32_t& c : *count) {
    const uint32_t n = c;
    c = sum;
    sum += n;
  }
  for (const Keyed& k : *from) (*to)[(*count)[(k.key >> shift) & (kBuckets - 1)]++] = k;
  return true;
}

}  // namespace

void sort_sweep_events(std::vector<SweepEvent>* events) {
  std::vector<SweepEvent>& ev = *events;
  if (ev.size() < kSmall || ev.size() > UINT32_MAX) {
    std::sort(ev.begin(), ev.end(), event_less);
    return;
  }
  std::vector<Keyed> a(ev.size()), b(ev.size());
  for (size_t i = 0; i < ev.size(); ++i) a[i] = {order_key(ev[i].t), ev[i]};
  std::vector<uint32_t> count(kBuckets);
  for (int d = 0; d < 64 / kDigitBits; ++d) {
    if (radix_pass(&a, &b, d, &count)) a.swap(b);
  }
  for (size_t i = 0; i < a.size(); ++i) ev[i] = a[i].e;
  // Equal times: decrements first, then by delta.
  for (size_t i = 0; i < ev.size();) {
    size_t j = i + 1;
    while (j < ev.size() && ev[j].t == ev[i].t) ++j;
    if (j - i > 1) std::sort(ev.begin() + static_cast<std::ptrdiff_t>(i), ev.begin() + static_cast<std::ptrdiff_t>(j), event_less);
    i = j;
  }
}

}  // namespace servebench::metrics
