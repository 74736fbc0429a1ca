// Duration-weighted quantiles of a step curve's (value, duration) segments (the sweep rows'
// p50/p90/p95/p99, sweep_rows.cc): for each share q, the smallest value v whose segments at or
// below v weigh at least q of the whole, tested as `weight / total >= q` (what a sort by value
// and a running sum give).
//
// A run of 300,000 requests has ~600,000 segments per curve, and the recursive selection
// (nth_element, kept as reference_weighted_quantiles) was the largest user-space item of the end of
// the run. When every duration is a whole number of ns and the total is below 2^53 (the curves'
// times are integer ns, so this is the usual case), every partial sum is exact in any order, so
// buckets can be summed first: one pass puts each segment into one of 4,096 equal-width value
// buckets, the bucket sums locate each share's bucket, and only that bucket is searched (bucketed
// again while it is large, so a few outliers that stretch the range cost one more level; a
// bucket of one value answers at once). The result is then bit for bit the reference's. Anything
// else (a fractional duration, a NaN) goes to the reference unchanged.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace servebench::metrics {

using WeightedSegment = std::pair<double, double>;  // (value, duration)

// out[i] = the quantile for q[i]; q ascending in (0, 1], n of them. `total` is the sum of the
// durations (positive); the values must not all be equal (the caller answers that case).
// Reorders `seg`.
void weighted_quantiles(std::vector<WeightedSegment>* seg, double total, const double* q,
                        double* out, size_t n);

// The recursive selection: expected O(size), any durations. Same contract.
void reference_weighted_quantiles(std::vector<WeightedSegment>* seg, double total,
                                  const double* q, double* out, size_t n);

}  // namespace servebench::metrics
