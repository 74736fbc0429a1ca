#include "metrics/event_sort.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace servebench::metrics {
namespace {

bool event_less(const SweepEvent& a, const SweepEvent& b) {
  if (a.t != b.t) return a.t < b.t;
  if ((a.delta > 0) != (b.delta > 0)) return b.delta > 0;
  return a.delta < b.delta;
}

constexpr size_t kSmall = 512;       // below this, a comparison sort is as fast
constexpr size_t kPerBucket = 4;     // events per bucket when the times are spread evenly
constexpr size_t kInsertion = 24;    // buckets up to this size: insertion sort

void insertion_sort(SweepEvent* first, SweepEvent* last) {
  for (SweepEvent* i = first + 1; i < last; ++i) {
    const SweepEvent x = *i;
    SweepEvent* j = i;
    for (; j > first && event_less(x, j[-1]); --j) *j = j[-1];
    *j = x;
  }
}

}  // namespace

void sort_sweep_events(std::vector<SweepEvent>* events, std::vector<SweepEvent>* scratch) {
  std::vector<SweepEvent>& ev = *events;
  const size_t n = ev.size();
  const auto [lo_it, hi_it] = std::minmax_element(
      ev.begin(), ev.end(), [](const SweepEvent& a, const SweepEvent& b) { return a.t < b.t; });
  const double range = n > 0 ? hi_it->t - lo_it->t : 0;
  const size_t buckets = n / kPerBucket;
  const double scale = static_cast<double>(buckets) / range;  // finite for a finite range > 0 ...
  if (n < kSmall || n > UINT32_MAX || !(range > 0) || !std::isfinite(range) || !std::isfinite(scale)) {  // ... unless tiny
    std::sort(ev.begin(), ev.end(), event_less);
    return;
  }
  // Buckets of equal width over [lo, hi]: the bucket of t is monotone in t (a subtraction, a
  // multiplication by a positive constant and a truncation, each monotone under rounding), so
  // sorting each bucket sorts the whole. Times cluster only as the load does; a crowded bucket
  // gets std::sort.
  const double lo = lo_it->t;
  std::vector<uint32_t> end(buckets, 0);
  std::vector<uint32_t> bucket_of(n);  // computed once, for the count and the placement
  for (size_t i = 0; i < n; ++i) {
    const auto b = static_cast<uint32_t>(
        std::min(static_cast<size_t>((ev[i].t - lo) * scale), buckets - 1));
    bucket_of[i] = b;
    ++end[b];
  }
  uint32_t sum = 0;
  for (uint32_t& c : end) c = sum += c;
  // Placed into the scratch vector, which then trades places with the events: no copy back,
  // and the caller's next curve reuses both allocations.
  std::vector<SweepEvent>& out = *scratch;
  out.resize(n);
  for (size_t i = n; i-- > 0;) out[--end[bucket_of[i]]] = ev[i];  // end[b] becomes b's start
  for (size_t b = 0; b < buckets; ++b) {
    SweepEvent* first = out.data() + end[b];
    SweepEvent* last = out.data() + (b + 1 < buckets ? end[b + 1] : n);
    if (last - first <= static_cast<std::ptrdiff_t>(kInsertion)) {
      insertion_sort(first, last);
    } else {
      std::sort(first, last, event_less);
    }
  }
  ev.swap(out);
}

}  // namespace servebench::metrics
