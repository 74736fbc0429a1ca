#include "metrics/log_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace servebench::metrics {
namespace {

constexpr int kShift = 52 - LogHistogram::kSubBucketBits;

// numpy's _lerp, as compute_stats uses it.
double lerp(double a, double b, double t) {
  if (a == b) return a;
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

}  // namespace

int64_t LogHistogram::key_of(double v) {
  return static_cast<int64_t>(std::bit_cast<uint64_t>(v) >> kShift);
}

double LogHistogram::representative(int64_t key) const {
  const double lo = std::bit_cast<double>(static_cast<uint64_t>(key) << kShift);
  const double hi = std::bit_cast<double>(static_cast<uint64_t>(key + 1) << kShift);
  return std::clamp(lo + (hi - lo) / 2, min_, max_);
}

void LogHistogram::grow_to(int64_t key) {
  if (counts_.empty()) {
    base_key_ = key;
    counts_.assign(1, 0);
    return;
  }
  if (key < base_key_) {
    counts_.insert(counts_.begin(), static_cast<size_t>(base_key_ - key), 0);
    base_key_ = key;
  } else if (key - base_key_ >= static_cast<int64_t>(counts_.size())) {
    counts_.resize(static_cast<size_t>(key - base_key_ + 1), 0);
  }
}

void LogHistogram::add(double v, uint64_t n) {
  if (n == 0) return;
  if (count_ == 0) {
    min_ = max_ = v;
  } else {
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
  // Chan et al.'s update for a batch of n equal values (Welford when n = 1).
  const double total = static_cast<double>(count_ + n);
  const double delta = v - mean_;
  mean_ += delta * static_cast<double>(n) / total;
  m2_ += delta * delta * static_cast<double>(count_) * static_cast<double>(n) / total;
  count_ += n;
  sum_ += v * static_cast<double>(n);
  if (!(v >= kMinPositive)) {
    zero_count_ += n;
    return;
  }
  const int64_t key = key_of(v);
  if (counts_.empty() || key < base_key_ ||
      key - base_key_ >= static_cast<int64_t>(counts_.size())) {
    grow_to(key);
  }
  counts_[static_cast<size_t>(key - base_key_)] += n;
}

void LogHistogram::merge(const LogHistogram& o) {
  if (o.count_ == 0) return;
  if (count_ == 0) {
    *this = o;
    return;
  }
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
  const double na = static_cast<double>(count_), nb = static_cast<double>(o.count_);
  const double delta = o.mean_ - mean_;
  mean_ += delta * nb / (na + nb);
  m2_ += o.m2_ + delta * delta * na * nb / (na + nb);
  count_ += o.count_;
  sum_ += o.sum_;
  zero_count_ += o.zero_count_;
  if (!o.counts_.empty()) {
    grow_to(o.base_key_);
    grow_to(o.base_key_ + static_cast<int64_t>(o.counts_.size()) - 1);
    const size_t offset = static_cast<size_t>(o.base_key_ - base_key_);
    for (size_t i = 0; i < o.counts_.size(); ++i) counts_[offset + i] += o.counts_[i];
  }
}

double LogHistogram::value_at_rank(uint64_t k) const {
  if (k < zero_count_) return std::clamp(0.0, min_, max_);
  uint64_t seen = zero_count_;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (k < seen) return representative(base_key_ + static_cast<int64_t>(i));
  }
  return max_;
}

Stats LogHistogram::stats() const {
  Stats s;
  s.count = static_cast<int64_t>(count_);
  s.sum = sum_;
  s.min = min_;
  s.max = max_;
  s.avg = sum_ / static_cast<double>(count_);
  s.std = std::sqrt(std::max(0.0, m2_) / static_cast<double>(count_));
  const double last = static_cast<double>(count_ - 1);
  for (size_t i = 0; i < kPercentiles.size(); ++i) {
    const double h = kPercentiles[i] / 100.0 * last;
    const uint64_t lo = static_cast<uint64_t>(std::floor(h));
    const double frac = h - static_cast<double>(lo);
    const double a = value_at_rank(lo);
    s.p[i] = frac > 0 && lo + 1 < count_ ? lerp(a, value_at_rank(lo + 1), frac) : a;
  }
  return s;
}

}  // namespace servebench::metrics
