#include "metrics/timeslices.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace servebench::metrics {

std::vector<TimeSlice> summarize_slices(const std::vector<const record::RequestRecord*>& records,
                                        int64_t slice_ns, const SummaryOptions& options) {
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const auto* r : records) {
    if (r->request_start_ns > 0) origin = std::min(origin, r->request_start_ns);
  }
  if (origin == std::numeric_limits<int64_t>::max()) return {};
  SummaryOptions o = options;
  o.window_ns = slice_ns;
  o.replay_lag_rows = false;  // run-scoped, as AIPerf's timeslice_derivable = False
  o.sweep_rows = false;       // each slice reads its window of the run's curves (finish_slices)
  // One accumulator per slice and the run's sweep data, filled in one pass.
  std::vector<SummaryAccumulator> slices;
  SweepData sweep;
  sweep.per_chunk = options.inter_chunk_latency;
  sweep.gap_limit = options.exact_chunk_samples;
  int64_t run_end = 0;
  for (const auto* r : records) {
    if (r->request_start_ns <= 0) continue;
    const size_t b = static_cast<size_t>((r->request_start_ns - origin) / slice_ns);
    while (slices.size() <= b) slices.emplace_back(o);
    slices[b].add(*r);
    sweep.add(*r, record_facts(*r, options.capabilities));
    run_end = std::max({run_end, r->request_start_ns, r->end_ns});
  }
  return finish_slices(std::move(slices), {origin, slice_ns, run_end, &sweep});
}

std::vector<TimeSlice> finish_slices(std::vector<SummaryAccumulator>&& slices,
                                     const SliceInputs& in) {
  if (slices.empty()) return {};
  const SweepCurves curves(*in.sweep, in.origin_ns);
  std::vector<TimeSlice> out;
  out.reserve(slices.size());
  for (size_t i = 0; i < slices.size(); ++i) {
    TimeSlice slice;
    slice.index = static_cast<int64_t>(i);
    slice.start_ns = in.origin_ns + static_cast<int64_t>(i) * in.slice_ns;
    slice.end_ns = slice.start_ns + in.slice_ns;
    if (i + 1 == slices.size() && in.run_end_ns < slice.end_ns) {
      // The run ended inside the last slice: its window stops there, so idle time after the
      // run dilutes neither its throughputs nor its sweep rows.
      slice.end_ns = std::max(in.run_end_ns, slice.start_ns);
      slice.complete = false;
      if (slice.end_ns > slice.start_ns) slices[i].set_window_ns(slice.end_ns - slice.start_ns);
    }
    slice.summary = std::move(slices[i]).finish();
    curves.append_rows(slice.start_ns, slice.end_ns, &slice.summary.metrics);
    out.push_back(std::move(slice));
  }
  return out;
}

}  // namespace servebench::metrics
