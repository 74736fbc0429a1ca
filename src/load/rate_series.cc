#include "load/rate_series.h"

#include <algorithm>

namespace servebench::load {

double RateSeries::rate_at(int64_t t) const {
  if (t <= points_.front().time_ns) return points_.front().qps;
  if (t >= points_.back().time_ns) return points_.back().qps;
  auto right = std::upper_bound(points_.begin(), points_.end(), t,
                                [](int64_t x, const RateSeriesPoint& p) { return x < p.time_ns; });
  auto left = std::prev(right);
  const double progress = static_cast<double>(t - left->time_ns) /
                          static_cast<double>(right->time_ns - left->time_ns);
  return left->qps + (right->qps - left->qps) * progress;
}

double RateSeries::max_qps() const {
  double m = 0;
  for (const auto& p : points_) m = std::max(m, p.qps);
  return m;
}

}  // namespace servebench::load
