#include "metrics/weighted_quantiles.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace servebench::metrics {
namespace {

using WSeg = WeightedSegment;

// For each of the n ascending shares q[i], the first value, in value order, whose cumulative
// duration share reaches q[i]. Everything before `lo` weighs `acc` and no value there exceeds
// one in [lo, hi); shares past the last segment (round-off) get `top`.
void select_shares(WSeg* lo, WSeg* hi, double acc, double total, const double* q, double* out,
                   size_t n, double top) {
  const auto by_value = [](const WSeg& a, const WSeg& b) { return a.first < b.first; };
  while (n > 0) {
    if (lo == hi) {
      std::fill(out, out + n, top);
      return;
    }
    if (hi - lo == 1) {
      std::fill(out, out + n, lo->first);
      return;
    }
    WSeg* mid = lo + (hi - lo - 1) / 2;
    std::nth_element(lo, mid, hi, by_value);
    double left = acc;
    for (const WSeg* s = lo; s <= mid; ++s) left += s->second;
    size_t k = 0;
    while (k < n && left / total >= q[k]) ++k;
    if (k > 0) select_shares(lo, mid + 1, acc, total, q, out, k, mid->first);
    lo = mid + 1;
    acc = left;
    q += k;
    out += k;
    n -= k;
  }
}

constexpr double kExactSumLimit = 9007199254740992.0;  // 2^53: integers up to it add exactly
constexpr size_t kValueBuckets = 4096;
constexpr size_t kDirectBelow = 256;  // fewer segments than this: select directly
constexpr int kMaxBucketDepth = 4;    // bucketing a bucket narrows the range 4096-fold each time

// Where a share's answer lies: bucket `bucket`, for shares [first, last), weight below `before`.
struct ShareBucket {
  size_t bucket, first, last;
  double before;
};

// out[i] for q[i] (i < n) among `seg`, whose values all exceed those of the segments before it,
// which weigh `before`. Equal-width buckets of value: a bucket index is monotone in the value
// (subtraction, a positive scale and truncation all are), so the buckets' exact weights locate
// each share's bucket, whose segments are then searched the same way.
void bucket_select(std::vector<WSeg>* segs, double before, double total, const double* q,
                   double* out, size_t n, int depth) {
  std::vector<WSeg>& seg = *segs;
  double lo = seg.front().first, hi = lo;
  for (const WSeg& s : seg) {
    lo = std::min(lo, s.first);
    hi = std::max(hi, s.first);
  }
  const double scale = static_cast<double>(kValueBuckets) / (hi - lo);
  if (lo == hi) {  // one value: it is every answer here
    std::fill(out, out + n, lo);
    return;
  }
  if (seg.size() < kDirectBelow || depth == kMaxBucketDepth || !std::isfinite(scale)) {
    select_shares(seg.data(), seg.data() + seg.size(), before, total, q, out, n, hi);
    return;
  }
  std::vector<uint16_t> ids(seg.size());
  std::vector<double> weight(kValueBuckets, 0.0);
  for (size_t i = 0; i < seg.size(); ++i) {
    const auto b = static_cast<uint16_t>(
        std::min(kValueBuckets - 1, static_cast<size_t>((seg[i].first - lo) * scale)));
    ids[i] = b;
    weight[b] += seg[i].second;
  }
  // The first bucket whose running weight reaches each share (the reference's answer is in it).
  std::vector<ShareBucket> targets;
  for (size_t b = 0, i = 0; i < n;) {
    while (b + 1 < kValueBuckets && !((before + weight[b]) / total >= q[i])) before += weight[b++];
    size_t k = i + 1;
    while (k < n && (before + weight[b]) / total >= q[k]) ++k;
    targets.push_back({b, i, k, before});
    i = k;
    before += weight[b];
    if (b + 1 < kValueBuckets) ++b;
  }
  std::vector<int16_t> slot(kValueBuckets, -1);
  for (size_t t = 0; t < targets.size(); ++t) slot[targets[t].bucket] = static_cast<int16_t>(t);
  // A bucket of one value (a saturated run's concurrency sits at its top value most of the time)
  // answers without copying its segments.
  std::vector<size_t> count(targets.size(), 0);
  std::vector<double> first(targets.size(), 0);
  std::vector<char> mixed(targets.size(), 0);
  for (size_t i = 0; i < seg.size(); ++i) {
    const int16_t t = slot[ids[i]];
    if (t < 0) continue;
    const auto u = static_cast<size_t>(t);
    if (count[u]++ == 0) first[u] = seg[i].first;
    mixed[u] |= seg[i].first != first[u];
  }
  std::vector<std::vector<WSeg>> members(targets.size());
  for (size_t t = 0; t < targets.size(); ++t) {
    if (mixed[t]) members[t].reserve(count[t]);
  }
  if (std::find(mixed.begin(), mixed.end(), 1) != mixed.end()) {
    for (size_t i = 0; i < seg.size(); ++i) {
      const int16_t t = slot[ids[i]];
      if (t >= 0 && mixed[static_cast<size_t>(t)]) members[static_cast<size_t>(t)].push_back(seg[i]);
    }
  }
  for (size_t t = 0; t < targets.size(); ++t) {
    const ShareBucket& g = targets[t];
    if (count[t] == 0) {  // only past the last bucket, which exact sums never reach
      std::fill(out + g.first, out + g.last, hi);
    } else if (!mixed[t]) {
      std::fill(out + g.first, out + g.last, first[t]);
    } else {
      bucket_select(&members[t], g.before, total, q + g.first, out + g.first, g.last - g.first,
                    depth + 1);
    }
  }
}

// The bucketed selection when every partial sum is exact; false (nothing written) for a NaN
// value, a duration that is not a whole, non-negative number, or a total of 2^53 or more.
bool bucketed(std::vector<WSeg>* seg, double total, const double* q, double* out, size_t n) {
  if (!(total < kExactSumLimit) || seg->empty()) return false;
  for (const auto& [v, d] : *seg) {
    if (std::isnan(v) || !(d >= 0) || d != static_cast<double>(static_cast<int64_t>(d))) return false;
  }
  bucket_select(seg, 0, total, q, out, n, 0);
  return true;
}

}  // namespace

void reference_weighted_quantiles(std::vector<WSeg>* seg, double total, const double* q,
                                  double* out, size_t n) {
  double top = -INFINITY;
  for (const auto& s : *seg) top = std::max(top, s.first);
  select_shares(seg->data(), seg->data() + seg->size(), 0, total, q, out, n, top);
}

void weighted_quantiles(std::vector<WSeg>* seg, double total, const double* q, double* out,
                        size_t n) {
  if (!bucketed(seg, total, q, out, n)) reference_weighted_quantiles(seg, total, q, out, n);
}

}  // namespace servebench::metrics
