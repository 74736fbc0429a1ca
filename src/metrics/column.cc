#include "metrics/column.h"

#include <algorithm>
#include <utility>

namespace servebench::metrics {

void Column::reserve(size_t n) {
  if (constant_) {
    reserve_ = std::max(reserve_, count_ + n);
  } else {
    values_.reserve(values_.size() + n);
  }
}

void Column::push_other(double v) {
  if (constant_ && count_ == 0) {
    value_ = v;
    count_ = 1;
    return;
  }
  if (constant_) expand();
  values_.push_back(v);
}

void Column::expand() {
  values_.reserve(std::max(reserve_, 2 * count_ + 1));
  values_.assign(count_, value_);
  constant_ = false;
  count_ = reserve_ = 0;
}

void Column::append(Column&& other) {
  if (other.constant_ && other.count_ == 0) return;
  if (constant_ && count_ == 0) {
    *this = std::move(other);
  } else if (constant_ && other.constant_ && same_bits(value_, other.value_)) {
    count_ += other.count_;
  } else {
    if (constant_) expand();
    if (other.constant_) {
      values_.insert(values_.end(), other.count_, other.value_);
    } else {
      values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    }
  }
  other = Column();
}

std::vector<double> Column::copy_values() const {
  return constant_ ? std::vector<double>(count_, value_) : values_;
}

// The same additions in the same order as the loop over the vector (no multiplication: n · v
// rounds differently from n additions of a value that is not an integer).
double Column::sum() const {
  double s = 0;
  if (constant_) {
    for (size_t i = 0; i < count_; ++i) s += value_;
  } else {
    for (double v : values_) s += v;
  }
  return s;
}

size_t Column::count_above(double threshold) const {
  if (constant_) return value_ > threshold ? count_ : 0;
  size_t n = 0;
  for (double v : values_) n += v > threshold;
  return n;
}

Stats Column::stats(PercentileMethod method) {
  return constant_ ? constant_stats(value_, count_, method) : compute_stats(values_, method);
}

}  // namespace servebench::metrics
