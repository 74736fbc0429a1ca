// SliceAccumulator: the --slice-duration time slices built from records as they complete, so
// time-sliced exports need no record vector. Slice i holds the requests whose request_start_ns
// lies in [origin + i·slice, origin + (i+1)·slice); empty slices between two filled ones are
// kept; the last slice's window ends at the run's end when that comes first, and each slice's
// sweep rows are its window of the curves of every record added (metrics/timeslices.h, same
// rules: finish() is metrics::finish_slices).
//
// The origin: set_origin() fixes it (the profiling phase start, when the run knows it before
// the first record arrives). Until it is set, records are held as text-free copies and binned
// when it is set or, at finish(), against the earliest request_start_ns of all records
// (metrics::summarize_slices' rule), so finish() then equals summarize_slices(records).
// Records that started before the origin, or never started, belong to no slice.
//
// Thread safety: not thread-safe; one owner (RecordStream guards it with its lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "metrics/summary.h"
#include "metrics/summary_accumulator.h"
#include "metrics/sweep_rows.h"
#include "metrics/timeslices.h"
#include "record/request_record.h"

namespace servebench::exporter {

class SliceAccumulator {
 public:
  // REQUIRES: slice_ns > 0.
  SliceAccumulator(int64_t slice_ns, metrics::SummaryOptions options);

  // REQUIRES: called at most once.
  void set_origin(int64_t steady_ns);
  // REQUIRES: token counts filled. Keeps what the slice summary and the run's sweep curves need
  // (metrics::SweepData: ~48 bytes per request and 8 per chunk gap within the inter-chunk
  // bound), never the texts.
  void add(const record::RequestRecord& r);
  // The slices, in order (empty when no record started).
  std::vector<metrics::TimeSlice> finish();
  // Records held while the origin is unknown.
  size_t pending() const { return pending_.size(); }

 private:
  void bin(const record::RequestRecord& r);

  const int64_t slice_ns_;
  const metrics::SummaryOptions options_;
  std::optional<int64_t> origin_;
  std::vector<record::RequestRecord> pending_;
  std::vector<metrics::SummaryAccumulator> slices_;  // by index
  int64_t run_end_ns_ = 0;                           // latest start or end of a binned record
  metrics::SweepData sweep_;                         // every record added
};

}  // namespace servebench::exporter
