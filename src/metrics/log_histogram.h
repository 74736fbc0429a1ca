// LogHistogram: a mergeable histogram with bounded relative error, for per-chunk series too
// large to keep exactly (SampleSeries switches to it past its bound).
//
// Buckets are log-linear: each power of two is split into 2^kSubBucketBits equal sub-buckets
// (the bucket of a positive double is its exponent and top kSubBucketBits mantissa bits, so
// the key is one shift of its bit pattern). A bucket is reported as its midpoint, clamped to
// the exact [min, max]; every value in a bucket lies within kRelativeError of that point:
//
//   |reported - true| <= kRelativeError * true,   kRelativeError = 2^-(kSubBucketBits + 1)
//                                                                 = 2^-11 ≈ 0.049 %
//
// for every order statistic of a sample of non-negative values, and so for every percentile
// interpolated between two of them (AIPerf's t-digest for the same lists: ≤ 0.07 % measured).
// Values in [0, kMinPositive) share one bucket reported as 0 (absolute error < 1e-6 ns);
// negative values, which gaps between non-decreasing timestamps never produce, count there too.
// count, sum, min, max and mean are exact (up to floating-point rounding), std is Welford's.
//
// Memory: 8 bytes per bucket between the smallest and largest key seen: 1024 per doubling,
// e.g. ~30k buckets (240 KiB) for values from 1 µs to 1000 s in ns.
//
// Thread safety: not thread-safe; a value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/stats.h"

namespace servebench::metrics {

class LogHistogram {
 public:
  static constexpr int kSubBucketBits = 10;
  static constexpr double kRelativeError = 1.0 / (1u << (kSubBucketBits + 1));
  static constexpr double kMinPositive = 1.0 / (1u << 20);

  // Adds `n` samples of value v.
  void add(double v, uint64_t n = 1);
  void merge(const LogHistogram& other);

  uint64_t count() const { return count_; }
  // Statistics as compute_stats() gives them, with percentiles (linear method) within
  // kRelativeError of the exact ones. REQUIRES: count() > 0.
  Stats stats() const;
  // The reported value of the sample at rank k (0-based, ascending). REQUIRES: k < count().
  double value_at_rank(uint64_t k) const;
  size_t memory_bytes() const { return counts_.capacity() * sizeof(uint64_t); }

 private:
  static int64_t key_of(double v);
  double representative(int64_t key) const;
  void grow_to(int64_t key);

  std::vector<uint64_t> counts_;  // counts_[i] = samples with key base_key_ + i
  int64_t base_key_ = 0;
  uint64_t zero_count_ = 0;  // samples below kMinPositive
  uint64_t count_ = 0;
  double sum_ = 0;
  double min_ = 0;
  double max_ = 0;
  double mean_ = 0;  // Welford
  double m2_ = 0;
};

}  // namespace servebench::metrics
