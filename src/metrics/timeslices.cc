#include "metrics/timeslices.h"

#include <algorithm>
#include <limits>

#include "metrics/summary_accumulator.h"

namespace servebench::metrics {

std::vector<TimeSlice> summarize_slices(const std::vector<const record::RequestRecord*>& records,
                                        int64_t slice_ns, const SummaryOptions& options) {
  std::vector<TimeSlice> out;
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const auto* r : records) {
    if (r->request_start_ns > 0) origin = std::min(origin, r->request_start_ns);
  }
  if (origin == std::numeric_limits<int64_t>::max()) return out;
  // One accumulator per slice, filled in one pass.
  std::vector<SummaryAccumulator> slices;
  std::vector<int64_t> last_end;
  for (const auto* r : records) {
    if (r->request_start_ns <= 0) continue;
    const size_t b = static_cast<size_t>((r->request_start_ns - origin) / slice_ns);
    while (slices.size() <= b) {
      SummaryOptions o = options;
      o.window_ns = slice_ns;
      slices.emplace_back(std::move(o));
      last_end.push_back(0);
    }
    slices[b].add(*r);
    last_end[b] = std::max(last_end[b], r->end_ns);
  }
  for (size_t i = 0; i < slices.size(); ++i) {
    TimeSlice slice;
    slice.index = static_cast<int64_t>(i);
    slice.start_ns = origin + static_cast<int64_t>(i) * slice_ns;
    slice.end_ns = slice.start_ns + slice_ns;
    if (i + 1 == slices.size()) {
      const int64_t partial = last_end[i] - slice.start_ns;
      if (partial > 0 && partial < slice_ns) slices[i].set_window_ns(partial);
    }
    slice.summary = std::move(slices[i]).finish();
    out.push_back(std::move(slice));
  }
  return out;
}

}  // namespace servebench::metrics
