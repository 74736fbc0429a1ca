// Exact order statistics of a large sample by value buckets: the percentiles of compute_stats
// (stats.h) and report.html's CDF points.
//
// The recursive selection (select_order_statistics) reads a 300,000-value column about a dozen
// times for the 18 ranks of nine interpolated percentiles: ~8 ms per latency column, most of the
// end of a long run. This reads it twice: once counting values into 4,096 buckets over an
// order-preserving integer image of the doubles (log-like for skewed data: the exponent bits
// come first), once gathering the values of the few buckets that hold a wanted rank; each
// wanted rank is then selected within its bucket's values. The result is the same order
// statistic, value for value.
//
// Thread safety: pure function.
#pragma once

#include <cstddef>
#include <vector>

namespace servebench::metrics {

// Writes to out[j] the idx[j]-th smallest value (0-based) of `values`, for the ascending,
// distinct ranks idx[0..k). `min` and `max` are the sample's extremes; no value is NaN. A large
// sample by value buckets (leaving `values` as it is), a small one by selection in place
// (select_order_statistics, which reorders it); a constant one needs neither.
void order_statistics(std::vector<double>* values, double min, double max, const size_t* idx,
                      size_t k, double* out);

}  // namespace servebench::metrics
