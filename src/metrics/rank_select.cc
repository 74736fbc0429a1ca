#include "metrics/rank_select.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "metrics/stats.h"

namespace servebench::metrics {
namespace {

constexpr int kBucketBits = 12;
constexpr size_t kMinSize = 4096;   // below this, the recursive selection is as fast
constexpr size_t kMaxRanks = 0xFFFF;  // slots are 16-bit

// An integer whose order is the doubles' order (-0 and +0 as one).
uint64_t order_key(double v) {
  const uint64_t b = std::bit_cast<uint64_t>(v + 0.0);
  return (b >> 63) != 0 ? ~b : b | (uint64_t{1} << 63);
}

// Buckets of equal width over the integer images of [min, max].
struct Buckets {
  uint64_t lo;
  int shift;
  size_t count;
  uint64_t of(double v) const { return (order_key(v) - lo) >> shift; }
};

Buckets buckets_over(double min, double max) {
  const uint64_t lo = order_key(min);
  const uint64_t range = order_key(max) - lo;
  const int width = std::bit_width(range);
  const int shift = width > kBucketBits ? width - kBucketBits : 0;
  return {lo, shift, static_cast<size_t>(range >> shift) + 1};
}

// The values of the wanted buckets, slot by slot: slot s's values are members[from[s], end[s]).
// A bucket's slot is its index in `wanted`, or the spare slot wanted.size() when unwanted.
struct Gathered {
  std::vector<double> members;
  std::vector<uint32_t> from, end;
};

void gather(const std::vector<double>& values, const Buckets& bk, const std::vector<uint16_t>& slot,
            const std::vector<uint32_t>& start, const std::vector<size_t>& wanted, Gathered* g) {
  const size_t spare = wanted.size();
  g->from.assign(spare + 1, 0);
  g->end.assign(spare + 1, 0);
  uint32_t total = 0;
  for (size_t s = 0; s < spare; ++s) {
    g->from[s] = g->end[s] = total;
    total += start[wanted[s] + 1] - start[wanted[s]];
  }
  uint32_t* cursor = g->end.data();
  cursor[spare] = total;
  g->members.resize(total + 1);
  double* out = g->members.data();
  if (total < values.size() / 4) {  // mostly unwanted: a well-predicted branch
    for (double v : values) {
      const uint16_t s = slot[bk.of(v)];
      if (s != spare) out[cursor[s]++] = v;
    }
    return;
  }
  for (double v : values) {  // no branch to mispredict: an unwanted value goes to the spare end
    const uint16_t s = slot[bk.of(v)];
    out[cursor[s]] = v;
    cursor[s] += s != spare ? 1 : 0;
  }
}

// order_statistics by buckets; false, writing nothing, where buckets do not pay (a small sample)
// or cannot be used (a value outside [min, max]).
bool select_ranks_by_buckets(const std::vector<double>& values, double min, double max,
                             const size_t* idx, size_t k, double* out) {
  const size_t n = values.size();
  if (n < kMinSize || k == 0 || k >= kMaxRanks || n > UINT32_MAX) return false;
  const Buckets bk = buckets_over(min, max);
  std::vector<uint32_t> start(bk.count + 1, 0);  // start[b]: values in buckets before b
  for (double v : values) {
    const uint64_t b = bk.of(v);
    if (b >= bk.count) return false;
    ++start[b + 1];
  }
  for (size_t b = 1; b <= bk.count; ++b) start[b] += start[b - 1];
  // The bucket of each rank (ranks ascend, so buckets do), and the buckets holding one.
  std::vector<size_t> wanted;
  std::vector<size_t> rank_bucket(k);
  for (size_t j = 0, b = 0; j < k; ++j) {
    while (start[b + 1] <= idx[j]) ++b;
    rank_bucket[j] = b;
    if (wanted.empty() || wanted.back() != b) wanted.push_back(b);
  }
  std::vector<uint16_t> slot(bk.count, static_cast<uint16_t>(wanted.size()));
  for (size_t s = 0; s < wanted.size(); ++s) slot[wanted[s]] = static_cast<uint16_t>(s);
  Gathered g;
  gather(values, bk, slot, start, wanted, &g);
  // Each bucket's ranks, as positions among its members, selected there.
  std::vector<size_t> local(k);
  for (size_t j = 0; j < k;) {
    const size_t b = rank_bucket[j];
    const uint16_t s = slot[b];
    size_t last = j;
    for (; last < k && rank_bucket[last] == b; ++last)
      local[last] = idx[last] - start[b] + g.from[s];
    const double* first = g.members.data() + g.from[s];
    const double* end = g.members.data() + g.end[s];
    // A bucket of one repeated value (whole token counts, say) needs no selection.
    if (std::any_of(first, end, [first](double v) { return v != *first; }))
      select_order_statistics(&g.members, g.from[s], g.end[s], local.data() + j,
                              local.data() + last);
    for (; j < last; ++j) out[j] = g.members[local[j]];
  }
  return true;
}

}  // namespace

void order_statistics(std::vector<double>* values, double min, double max, const size_t* idx,
                      size_t k, double* out) {
  if (min == max) {
    std::fill(out, out + k, min);
    return;
  }
  if (select_ranks_by_buckets(*values, min, max, idx, k, out)) return;
  select_order_statistics(values, idx, idx + k);
  for (size_t j = 0; j < k; ++j) out[j] = (*values)[idx[j]];
}

}  // namespace servebench::metrics
