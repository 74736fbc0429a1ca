// RateSeries: a piecewise-linear request rate over a phase (AIPerf's --request-rate-series).
// Between two points the rate moves linearly; before the first point it is the first point's,
// after the last it stays at the last's. The series starts after the phase's rate ramp (AIPerf:
// "elapsed time from the start of the series, after any request-rate ramp completes"); during
// the ramp the rate climbs to the first point's rate.
//
// servebench evaluates the rate at every arrival (the exact curve); AIPerf updates its rate
// every 0.1 s. The mean rates agree within one update interval.
//
// Thread safety: immutable after construction; shared by every worker's arrival generator.
#pragma once

#include <cstdint>
#include <vector>

namespace servebench::load {

struct RateSeriesPoint {
  int64_t time_ns = 0;  // from the start of the series
  double qps = 0;       // > 0
};

class RateSeries {
 public:
  // REQUIRES: at least two points, strictly increasing in time, every qps > 0.
  explicit RateSeries(std::vector<RateSeriesPoint> points) : points_(std::move(points)) {}
  // Rate at `series_ns` from the start of the series.
  double rate_at(int64_t series_ns) const;
  double initial_qps() const { return points_.front().qps; }
  double max_qps() const;
  const std::vector<RateSeriesPoint>& points() const { return points_; }

 private:
  std::vector<RateSeriesPoint> points_;
};

}  // namespace servebench::load
