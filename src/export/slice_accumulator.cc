#include "export/slice_accumulator.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace servebench::exporter {

SliceAccumulator::SliceAccumulator(int64_t slice_ns, metrics::SummaryOptions options)
    : slice_ns_(slice_ns), options_(std::move(options)) {}

void SliceAccumulator::set_origin(int64_t steady_ns) {
  origin_ = steady_ns;
  for (const auto& r : pending_) bin(r);
  std::vector<record::RequestRecord>().swap(pending_);
}

void SliceAccumulator::add(const record::RequestRecord& r) {
  if (r.request_start_ns <= 0) return;
  if (origin_) {
    bin(r);
    return;
  }
  record::RequestRecord copy;  // everything but the texts and bodies
  copy = r;
  std::string().swap(copy.output_text);
  std::string().swap(copy.reasoning_text);
  std::vector<std::string>().swap(copy.input_texts);
  std::string().swap(copy.request_body);
  pending_.push_back(std::move(copy));
}

void SliceAccumulator::bin(const record::RequestRecord& r) {
  if (r.request_start_ns <= 0 || r.request_start_ns < *origin_) return;
  const size_t b = static_cast<size_t>((r.request_start_ns - *origin_) / slice_ns_);
  metrics::SummaryOptions o = options_;
  o.window_ns = slice_ns_;
  while (slices_.size() <= b) slices_.emplace_back(o);
  if (last_end_ns_.size() <= b) last_end_ns_.resize(b + 1, 0);
  slices_[b].add(r);
  last_end_ns_[b] = std::max(last_end_ns_[b], r.end_ns);
}

std::vector<metrics::TimeSlice> SliceAccumulator::finish() {
  if (!origin_) {
    int64_t earliest = std::numeric_limits<int64_t>::max();
    for (const auto& r : pending_) earliest = std::min(earliest, r.request_start_ns);
    if (pending_.empty()) return {};
    set_origin(earliest);
  }
  std::vector<metrics::TimeSlice> out;
  for (size_t i = 0; i < slices_.size(); ++i) {
    metrics::TimeSlice slice;
    slice.index = static_cast<int64_t>(i);
    slice.start_ns = *origin_ + static_cast<int64_t>(i) * slice_ns_;
    slice.end_ns = slice.start_ns + slice_ns_;
    const int64_t partial = last_end_ns_[i] - slice.start_ns;
    if (i + 1 == slices_.size() && partial > 0 && partial < slice_ns_) {
      // The window only enters at finish(): fold the slice into an accumulator whose options
      // differ from it in window_ns alone.
      metrics::SummaryOptions o = options_;
      o.window_ns = partial;
      metrics::SummaryAccumulator last(o);
      last.merge(std::move(slices_[i]));
      slice.summary = last.finish();
    } else {
      slice.summary = slices_[i].finish();
    }
    out.push_back(std::move(slice));
  }
  return out;
}

}  // namespace servebench::exporter
