#include "export/slice_accumulator.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace servebench::exporter {

SliceAccumulator::SliceAccumulator(int64_t slice_ns, metrics::SummaryOptions options)
    : slice_ns_(slice_ns), options_(std::move(options)) {
  // As the profiling summary's sweep data (summary_accumulator.cc), so the curves are the same.
  sweep_.per_chunk = options_.inter_chunk_latency;
  sweep_.gap_limit = options_.exact_chunk_samples;
}

void SliceAccumulator::set_origin(int64_t steady_ns) {
  origin_ = steady_ns;
  for (const auto& r : pending_) bin(r);
  std::vector<record::RequestRecord>().swap(pending_);
}

void SliceAccumulator::add(const record::RequestRecord& r) {
  if (r.request_start_ns <= 0) return;
  sweep_.add(r, metrics::record_facts(r, options_.capabilities));
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
  o.replay_lag_rows = false;  // run-scoped (metrics/replay_lag_rows.h)
  o.sweep_rows = false;       // the slice reads its window of sweep_ (metrics::finish_slices)
  while (slices_.size() <= b) slices_.emplace_back(o);
  slices_[b].add(r);
  run_end_ns_ = std::max({run_end_ns_, r.request_start_ns, r.end_ns});
}

std::vector<metrics::TimeSlice> SliceAccumulator::finish() {
  if (!origin_) {
    int64_t earliest = std::numeric_limits<int64_t>::max();
    for (const auto& r : pending_) earliest = std::min(earliest, r.request_start_ns);
    if (pending_.empty()) return {};
    set_origin(earliest);
  }
  metrics::SliceInputs in;
  in.origin_ns = *origin_;
  in.slice_ns = slice_ns_;
  in.run_end_ns = run_end_ns_;
  in.sweep = &sweep_;
  std::vector<metrics::TimeSlice> out = metrics::finish_slices(std::move(slices_), in);
  slices_.clear();
  return out;
}

}  // namespace servebench::exporter
