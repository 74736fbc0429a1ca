#include "metrics/timeslices.h"

#include <algorithm>
#include <limits>

namespace servebench::metrics {

std::vector<TimeSlice> summarize_slices(const std::vector<const record::RequestRecord*>& records,
                                        int64_t slice_ns, const SummaryOptions& options) {
  std::vector<TimeSlice> out;
  int64_t origin = std::numeric_limits<int64_t>::max();
  for (const auto* r : records) {
    if (r->request_start_ns > 0) origin = std::min(origin, r->request_start_ns);
  }
  if (origin == std::numeric_limits<int64_t>::max()) return out;
  std::vector<std::vector<const record::RequestRecord*>> buckets;
  std::vector<int64_t> last_end;
  for (const auto* r : records) {
    if (r->request_start_ns <= 0) continue;
    const size_t b = static_cast<size_t>((r->request_start_ns - origin) / slice_ns);
    if (b >= buckets.size()) {
      buckets.resize(b + 1);
      last_end.resize(b + 1, 0);
    }
    buckets[b].push_back(r);
    last_end[b] = std::max(last_end[b], r->end_ns);
  }
  for (size_t i = 0; i < buckets.size(); ++i) {
    TimeSlice slice;
    slice.index = static_cast<int64_t>(i);
    slice.start_ns = origin + static_cast<int64_t>(i) * slice_ns;
    slice.end_ns = slice.start_ns + slice_ns;
    SummaryOptions o = options;
    o.window_ns = slice_ns;
    if (i + 1 == buckets.size()) {
      const int64_t partial = last_end[i] - slice.start_ns;
      if (partial > 0 && partial < slice_ns) o.window_ns = partial;
    }
    slice.summary = summarize(buckets[i], o);
    out.push_back(std::move(slice));
  }
  return out;
}

}  // namespace servebench::metrics
