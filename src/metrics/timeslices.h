// Time slices (--slice-duration): the run cut into consecutive windows of equal length, each
// summarized on its own (AIPerf's profile_export_aiperf_timeslices.*). A request belongs to
// the slice in which it started (request_start_ns); slice 0 begins at the earliest start.
// Throughputs of a slice divide by the slice length (AIPerf's observation_duration); the last,
// partial slice divides by the time from its start to the last response it contains.
//
// Each slice is one SummaryAccumulator, filled in a single pass over the records.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/summary.h"

namespace servebench::metrics {

struct TimeSlice {
  int64_t index = 0;
  int64_t start_ns = 0;  // steady
  int64_t end_ns = 0;    // steady, exclusive
  Summary summary;
};

// REQUIRES: slice_ns > 0.
std::vector<TimeSlice> summarize_slices(const std::vector<const record::RequestRecord*>& records,
                                        int64_t slice_ns, const SummaryOptions& options);

}  // namespace servebench::metrics
