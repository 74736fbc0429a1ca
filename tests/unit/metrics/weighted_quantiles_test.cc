// Duration-weighted quantiles: the bucketed selection gives exactly the reference's answers
// (recursive selection), and both give the definition's (sort by value, running sum), for
// integer-valued, continuous, skewed, tied and tiny inputs; fractional durations take the
// reference path.
#include "metrics/weighted_quantiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace servebench::metrics {
namespace {

using Segs = std::vector<WeightedSegment>;

const double kSweepShares[] = {0.50, 0.90, 0.95, 0.99};
const double kManyShares[] = {1e-9, 0.01, 0.25, 0.5, 0.5, 0.75, 0.999999, 1.0};

double total_of(const Segs& s) {
  double t = 0;
  for (const auto& x : s) t += x.second;
  return t;
}

// The definition: sorted by value, the first segment whose running weight reaches q.
std::vector<double> by_definition(Segs s, const double* q, size_t n) {
  const double total = total_of(s);
  std::stable_sort(s.begin(), s.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<double> out;
  for (size_t i = 0; i < n; ++i) {
    double run = 0;
    double v = s.back().first;
    for (const auto& x : s) {
      run += x.second;
      if (run / total >= q[i]) {
        v = x.first;
        break;
      }
    }
    out.push_back(v);
  }
  return out;
}

void expect_same(const Segs& s, const double* q, size_t n, bool check_definition) {
  const double total = total_of(s);
  std::vector<double> fast(n), ref(n);
  Segs a = s, b = s;
  weighted_quantiles(&a, total, q, fast.data(), n);
  reference_weighted_quantiles(&b, total, q, ref.data(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(fast[i], ref[i]) << "q=" << q[i] << " n=" << s.size();
  if (check_definition) {
    EXPECT_EQ(fast, by_definition(s, q, n)) << "n=" << s.size();
  }
}

void expect_same_all(const Segs& s, bool check_definition) {
  expect_same(s, kSweepShares, std::size(kSweepShares), check_definition);
  expect_same(s, kManyShares, std::size(kManyShares), check_definition);
}

// Segments with values from `value` and whole-ns durations of 1..max_d.
template <class Gen>
Segs make(std::mt19937_64& rng, size_t n, Gen value, uint64_t max_d) {
  Segs s;
  for (size_t i = 0; i < n; ++i) s.emplace_back(value(rng), static_cast<double>(1 + rng() % max_d));
  return s;
}

TEST(WeightedQuantiles, IntegerValuedCurvesLikeConcurrency) {
  std::mt19937_64 rng(1);
  for (size_t n : {2, 3, 255, 256, 257, 1000, 5000, 100000}) {
    const Segs s = make(rng, n, [](auto& r) { return static_cast<double>(r() % 65); }, 1000000);
    expect_same_all(s, n <= 5000);
    // Mostly at the top value, as a saturated run's concurrency is.
    const Segs top = make(rng, n, [](auto& r) { return r() % 10 == 0 ? double(r() % 64) : 64.0; }, 50000);
    expect_same_all(top, n <= 5000);
  }
}

TEST(WeightedQuantiles, ContinuousAndSkewedRates) {
  std::mt19937_64 rng(2);
  std::lognormal_distribution<double> rate(-9, 1.5);
  for (size_t n : {300, 4000, 60000, 200000}) {
    expect_same_all(make(rng, n, [&](auto& r) { return rate(r); }, 3000000), n <= 4000);
    // A few huge outliers stretch the range: the mass sits in one bucket, bucketed again.
    expect_same_all(make(rng, n, [&](auto& r) { return r() % 1000 == 0 ? 1e12 * rate(r) : rate(r); }, 3000000),
                    n <= 4000);
    // Zeros (idle spans) beside rates, and values differing in the last bits only.
    expect_same_all(make(rng, n, [&](auto& r) { return r() % 3 == 0 ? 0.0 : 1.0 + (r() % 7) * 0x1p-52; }, 100),
                    n <= 4000);
  }
}

TEST(WeightedQuantiles, HeavySegmentsAndTiesDecideAtBucketEdges) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 200; ++round) {
    const size_t n = 256 + rng() % 3000;
    const uint64_t distinct = 1 + rng() % 40;
    Segs s = make(rng, n, [&](auto& r) { return static_cast<double>(r() % distinct) * 0.37; }, 1 + rng() % 20);
    // One segment holding about half the weight: shares land exactly on sums.
    s[rng() % n].second = std::floor(total_of(s));
    expect_same_all(s, true);
  }
}

// Shares that the running weight meets exactly at a value (and a bucket) boundary: the answer is
// that value, not the next.
TEST(WeightedQuantiles, ASumEqualToTheShareEndsAtItsValue) {
  Segs s;
  for (int v = 999; v >= 0; --v) s.emplace_back(v, 1.0);
  const std::vector<double> want = {499, 899, 949, 989};
  std::vector<double> out(4);
  Segs a = s;
  weighted_quantiles(&a, 1000, kSweepShares, out.data(), 4);
  EXPECT_EQ(out, want);
  EXPECT_EQ(by_definition(s, kSweepShares, 4), want);
  expect_same_all(s, true);
}

TEST(WeightedQuantiles, FractionalDurationsAndNaNsTakeTheReferencePath) {
  std::mt19937_64 rng(4);
  Segs s = make(rng, 5000, [](auto& r) { return static_cast<double>(r() % 100); }, 1000);
  s[17].second += 0.5;  // a chunk stamped just before its end: not a whole ns
  expect_same_all(s, true);
  std::vector<double> out(4);
  Segs nan = make(rng, 5000, [](auto& r) { return static_cast<double>(r() % 100); }, 1000);
  nan[3].first = NAN;
  Segs copy = nan;
  std::vector<double> ref(4);
  weighted_quantiles(&nan, total_of(copy), kSweepShares, out.data(), 4);
  reference_weighted_quantiles(&copy, total_of(copy), kSweepShares, ref.data(), 4);
  EXPECT_EQ(out, ref);
}

}  // namespace
}  // namespace servebench::metrics
