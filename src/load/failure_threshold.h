// FailureThreshold: AIPerf's --failed-request-threshold. Counts profiling-phase records (warm-up
// and cancelled-on-purpose records do not count) and trips once failed / total exceeds the
// ratio, checked only after max(concurrency, 10) records so one early failure cannot stop a run.
// It trips once; the caller stops the load (load::Runner::interrupt) and reports the stop.
//
// Thread safety: not shared; the record-processing thread owns it (one thread feeds records).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "record/request_record.h"

namespace servebench::load {

class FailureThreshold {
 public:
  // `concurrency`: the profiling concurrency (0 when open loop without a limit).
  FailureThreshold(double ratio, int64_t concurrency);
  // True exactly once: the record that made the ratio exceed the threshold.
  bool add(const record::RequestRecord& r);
  bool tripped() const { return tripped_; }
  int64_t total() const { return total_; }
  int64_t failed() const { return failed_; }
  int64_t floor() const { return floor_; }
  // "5 of 12 profiling requests failed (41.7% > 20.0%, --failed-request-threshold 0.2)".
  std::string reason() const;

 private:
  double ratio_;
  int64_t floor_;
  int64_t total_ = 0;
  int64_t failed_ = 0;
  bool tripped_ = false;
};

}  // namespace servebench::load
