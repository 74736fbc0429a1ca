// SampleSeries: the samples of one per-chunk list metric (inter_chunk_latency, per-token ITL).
// Exact — every sample kept, exact percentiles — while the series holds at most `exact_limit`
// samples; past that it folds into a LogHistogram (percentiles within
// LogHistogram::kRelativeError ≈ 0.049 %, exact count/sum/min/max/avg). The mode depends only
// on the total number of samples, so it does not depend on the order of adds or on how the
// samples were split across merged series.
//
// Memory: 8 bytes per sample while exact (at most 8 × exact_limit bytes), then the histogram
// (8 bytes per bucket, ~240 KiB for ns values from 1 µs to 1000 s).
//
// Thread safety: not thread-safe; a value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/log_histogram.h"
#include "metrics/stats.h"

namespace servebench::metrics {

class SampleSeries {
 public:
  explicit SampleSeries(size_t exact_limit = 0) : limit_(exact_limit) {}

  void add(double v) {
    if (!histogram_mode_) {
      values_.push_back(v);
      if (values_.size() > limit_) to_histogram();
    } else {
      histogram_.add(v);
    }
  }
  // Adds n samples of value v.
  void add(double v, size_t n);
  // Folds `other` in; the result is exact iff the combined count is within the limit.
  void merge(SampleSeries&& other);

  size_t count() const { return histogram_mode_ ? histogram_.count() : values_.size(); }
  bool empty() const { return count() == 0; }
  bool exact() const { return !histogram_mode_; }
  // The samples, in add order; non-null only while exact. compute_stats() may reorder them.
  std::vector<double>* exact_values() { return histogram_mode_ ? nullptr : &values_; }
  // Statistics of the histogram. REQUIRES: !exact() && !empty().
  Stats histogram_stats() const { return histogram_.stats(); }
  size_t memory_bytes() const;

 private:
  void to_histogram();

  size_t limit_;
  bool histogram_mode_ = false;
  std::vector<double> values_;
  LogHistogram histogram_;
};

}  // namespace servebench::metrics
