// Time slices (--slice-duration): the run cut into consecutive windows of equal length, each
// summarized on its own (AIPerf's profile_export_aiperf_timeslices.*). A request belongs to
// the slice in which it started (request_start_ns); slice 0 begins at the earliest start.
//
// Each slice's window is [start, start + slice], except the last one's, whose end is clipped to
// the run's end (the latest start or end of any sliced record) when that comes first; the slice
// is then not complete. Throughputs of a slice divide by its window's length (AIPerf's
// observation_duration). Its time-weighted sweep rows (sweep_rows.h) are that window of the
// curves of the whole run, not curves of its own records: a request in flight across a
// boundary counts in both slices for the time it spent in each. Both follow AIPerf 0.13's
// MetricsAccumulator._compute_timeslices.
//
// Each slice is one SummaryAccumulator, filled in a single pass over the records; the run's
// curves are built once (O(N log N)) and each slice reads its window of them.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/summary.h"
#include "metrics/summary_accumulator.h"
#include "metrics/sweep_rows.h"

namespace servebench::metrics {

struct TimeSlice {
  int64_t index = 0;
  int64_t start_ns = 0;   // steady
  int64_t end_ns = 0;     // steady: the window's end (clipped for the last slice)
  bool complete = true;   // false when end_ns was clipped to the run's end (AIPerf's is_complete)
  Summary summary;
};

// REQUIRES: slice_ns > 0.
std::vector<TimeSlice> summarize_slices(const std::vector<const record::RequestRecord*>& records,
                                        int64_t slice_ns, const SummaryOptions& options);

// What the two slice builders (summarize_slices, exporter::SliceAccumulator) hand over at the
// end: slice i holds the records that started in [origin + i·slice, origin + (i+1)·slice).
struct SliceInputs {
  int64_t origin_ns = 0;
  int64_t slice_ns = 0;
  int64_t run_end_ns = 0;  // the latest request_start_ns or end_ns of the sliced records
  const SweepData* sweep = nullptr;  // every record of the run with a start and an end
};

// The slices, in order: windows, throughput denominators and sweep rows as described above.
// Consumes `slices`.
std::vector<TimeSlice> finish_slices(std::vector<SummaryAccumulator>&& slices,
                                     const SliceInputs& in);

}  // namespace servebench::metrics
