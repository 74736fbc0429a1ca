#include "load/failure_threshold.h"

#include <fmt/format.h>

#include <algorithm>

namespace servebench::load {

FailureThreshold::FailureThreshold(double ratio, int64_t concurrency)
    : ratio_(ratio), floor_(std::max<int64_t>(concurrency, 10)) {}

bool FailureThreshold::add(const record::RequestRecord& r) {
  if (tripped_ || r.phase != record::Phase::kProfiling || r.cancelled()) return false;
  ++total_;
  if (!r.ok()) ++failed_;
  if (total_ < floor_) return false;
  if (static_cast<double>(failed_) / static_cast<double>(total_) <= ratio_) return false;
  tripped_ = true;
  return true;
}

std::string FailureThreshold::reason() const {
  const double pct = total_ ? 100.0 * static_cast<double>(failed_) / static_cast<double>(total_) : 0;
  return fmt::format(
      "stopped early: {} of {} profiling requests failed ({:.1f}% > {:.1f}%, "
      "--failed-request-threshold {})",
      failed_, total_, pct, ratio_ * 100, ratio_);
}

}  // namespace servebench::load
