// Column: one per-request metric's values in the order they were added, as a SummaryAccumulator
// keeps them (summary_accumulator.h). While every value added is the same (bit for bit), the
// column holds that value and a count instead of a vector: a run with a fixed ISL and OSL has a
// dozen such columns (ISL, OSL, the usage counts and their differences, zero-only latencies), and
// a vector of identical doubles cost 8 bytes per request each, a page fault per 512 requests
// while it grew, and two passes over memory at the end. The first different value turns the
// column into a vector holding the same values, so what a reader sees never depends on the mode:
// size(), sum() and stats() equal those of the vector of every value added, bit for bit.
//
// Thread safety: a value type with one owner.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "metrics/stats.h"

namespace servebench::metrics {

class Column {
  static constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

 public:
  // REQUIRES: v is not NaN (a summary never keeps one).
  void push(double v) {
    if (constant_ && same_bits(v, value_)) {
      ++count_;
      return;
    }
    push_other(v);
  }
  // Room for `n` more values, taken only once the column holds a vector.
  void reserve(size_t n);
  // Appends `other`'s values after this column's; `other` is left empty.
  void append(Column&& other);

  size_t size() const { return constant_ ? count_ : values_.size(); }
  bool empty() const { return size() == 0; }
  // Every value added so far is the same (and there is at least one).
  bool constant() const { return constant_ && count_ > 0; }
  // The values added, in order (built for a constant column).
  std::vector<double> copy_values() const;
  // The sum of the values in add order, as a loop over the vector would compute it.
  double sum() const;
  // How many values are greater than `threshold`.
  size_t count_above(double threshold) const;
  // compute_stats() of the values. May reorder the held vector (selection).
  Stats stats(PercentileMethod method);
  size_t memory_bytes() const { return values_.capacity() * sizeof(double); }

 private:
  static bool same_bits(double a, double b) {
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
  }
  void push_other(double v);  // the first value, or one that is not the column's constant
  void expand();              // constant → vector

  bool constant_ = true;
  double value_ = kNoValue;  // while count_ == 0: a NaN, which no pushed value matches
  size_t count_ = 0;       // values while constant
  size_t reserve_ = 0;     // the capacity reserve() asked for while constant
  std::vector<double> values_;
};

}  // namespace servebench::metrics
