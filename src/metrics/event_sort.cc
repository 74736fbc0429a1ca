#include "metrics/event_sort.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

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

// Inverse of order_key (a -0 comes back as +0; the sort treats them as equal anyway).
double from_order_key(uint64_t key) {
  const uint64_t u = (key >> 63) != 0 ? key & ~(uint64_t{1} << 63) : ~key;
  double t;
  std::memcpy(&t, &u, sizeof t);
  return t;
}

// An event with its time replaced by its key: the same 16 bytes, so the events' own storage
// serves as one of the two radix buffers (elements are moved with memcpy, as bytes).
struct Keyed {
  uint64_t key;
  double delta;
};
static_assert(sizeof(Keyed) == sizeof(SweepEvent) && std::is_trivially_copyable_v<SweepEvent>);

Keyed load(const unsigned char* base, size_t i) {
  Keyed k;
  std::memcpy(&k, base + i * sizeof(Keyed), sizeof k);
  return k;
}
void store(unsigned char* base, size_t i, const Keyed& k) {
  std::memcpy(base + i * sizeof(Keyed), &k, sizeof k);
}

constexpr size_t kSmall = 512;  // below this, a comparison sort is as fast
constexpr int kDigitBits = 11;  // 2,048 buckets: the counts and the scatter's targets stay cached
constexpr size_t kBuckets = size_t{1} << kDigitBits;

// One stable counting pass over n keyed events on digit `d`; false (and nothing moved) when
// every key shares it.
bool radix_pass(const unsigned char* from, unsigned char* to, size_t n, int d,
                std::vector<uint32_t>* count) {
  const int shift = d * kDigitBits;
  const auto digit = [shift](uint64_t key) { return (key >> shift) & (kBuckets - 1); };
  std::fill(count->begin(), count->end(), 0);
  for (size_t i = 0; i < n; ++i) ++(*count)[digit(load(from, i).key)];
  if ((*count)[digit(load(from, 0).key)] == n) return false;
  uint32_t sum = 0;
  for (uint32_t& c : *count) {
    const uint32_t m = c;
    c = sum;
    sum += m;
  }
  for (size_t i = 0; i < n; ++i) {
    const Keyed k = load(from, i);
    store(to, (*count)[digit(k.key)]++, k);
  }
  return true;
}

}  // namespace

void sort_sweep_events(std::vector<SweepEvent>* events) {
  std::vector<SweepEvent>& ev = *events;
  const size_t n = ev.size();
  if (n < kSmall || n > UINT32_MAX) {
    std::sort(ev.begin(), ev.end(), event_less);
    return;
  }
  // Keys in place, then passes between the events' storage and one buffer of the same size.
  auto* own = reinterpret_cast<unsigned char*>(ev.data());
  for (size_t i = 0; i < n; ++i) store(own, i, {order_key(ev[i].t), ev[i].delta});
  std::vector<Keyed> buffer(n);
  auto* other = reinterpret_cast<unsigned char*>(buffer.data());
  unsigned char* cur = own;
  unsigned char* next = other;
  // Digits every key shares are skipped without a counting pass: times of one run share their
  // sign and most exponent bits.
  uint64_t varying = 0;
  const uint64_t key0 = load(own, 0).key;
  for (size_t i = 1; i < n; ++i) varying |= load(own, i).key ^ key0;
  std::vector<uint32_t> count(kBuckets);
  for (int d = 0; d * kDigitBits < 64; ++d) {
    if (((varying >> (d * kDigitBits)) & (kBuckets - 1)) == 0) continue;
    if (radix_pass(cur, next, n, d, &count)) std::swap(cur, next);
  }
  for (size_t i = 0; i < n; ++i) {
    const Keyed k = load(cur, i);
    ev[i] = {from_order_key(k.key), k.delta};
  }
  // Equal times: decrements first, then by delta.
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && ev[j].t == ev[i].t) ++j;
    if (j - i > 1) std::sort(ev.begin() + static_cast<std::ptrdiff_t>(i), ev.begin() + static_cast<std::ptrdiff_t>(j), event_less);
    i = j;
  }
}

}  // namespace servebench::metrics
