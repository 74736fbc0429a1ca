#include "metrics/sample_series.h"

#include <utility>

namespace servebench::metrics {

void SampleSeries::add(double v, size_t n) {
  if (histogram_mode_) {
    histogram_.add(v, n);
    return;
  }
  values_.insert(values_.end(), n, v);
  if (values_.size() > limit_) to_histogram();
}

void SampleSeries::to_histogram() {
  for (double v : values_) histogram_.add(v);
  std::vector<double>().swap(values_);
  histogram_mode_ = true;
}

void SampleSeries::merge(SampleSeries&& o) {
  if (!histogram_mode_ && !o.histogram_mode_ && values_.size() + o.values_.size() <= limit_) {
    if (values_.empty()) {
      values_ = std::move(o.values_);
    } else {
      values_.insert(values_.end(), o.values_.begin(), o.values_.end());
    }
  } else {
    if (!histogram_mode_) to_histogram();
    if (!o.histogram_mode_) o.to_histogram();
    histogram_.merge(o.histogram_);
  }
  o = SampleSeries(o.limit_);
}

size_t SampleSeries::memory_bytes() const {
  return values_.capacity() * sizeof(double) + histogram_.memory_bytes();
}

}  // namespace servebench::metrics
