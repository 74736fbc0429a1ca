// Distributions for the report's histogram and CDF panels: exact over every value given (the
// report downsamples only its per-request arrays, never these).
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace servebench::report_html {

struct Histogram {
  std::vector<double> edges;    // bins + 1 ascending edges
  std::vector<int64_t> counts;  // bins; the sum is the number of finite values
};

struct Cdf {
  std::vector<double> x;  // ascending sample values
  std::vector<double> y;  // fraction of the sample <= x (the last is 1)
};

inline constexpr int kHistogramBins = 50;
inline constexpr size_t kCdfPoints = 400;

// Equal-width bins from min to max (kHistogramBins, or one per integer when every value is an
// integer and the range is narrower). NaN and infinite values are ignored.
Histogram make_histogram(const std::vector<double>& values, int bins = kHistogramBins);

// The empirical CDF: every sample when there are at most `points`, else `points` order
// statistics at evenly spaced ranks (the last one the maximum). NaN/inf ignored.
Cdf make_cdf(const std::vector<double>& values, size_t points = kCdfPoints);

// Percentile q (0..100) of `sorted`: metrics::percentile_sorted (numpy's linear method, the
// summary's definition), NaN when empty.
double percentile_of_sorted(const std::vector<double>& sorted, double q);

// Puts the values percentile_of_sorted(*s, q) reads for each of `shares` (two neighbours each),
// and the maximum, at their sorted positions by selection: percentile_of_sorted and s->back()
// then give a full sort's answers, at a fraction of its cost. REQUIRES: !s->empty().
void place_percentile_ranks(std::vector<double>* s, std::initializer_list<double> shares);

}  // namespace servebench::report_html
