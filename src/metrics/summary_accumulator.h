// SummaryAccumulator: builds a Summary from records handed over one at a time, so a run never
// has to keep its records in memory (DESIGN.md "Streamed records"). Record processing calls
// add() as each record is token-counted, then drops the record; finish() gives the summary of
// every record added or merged, independent of their order. summarize() is this class over a
// vector of records: there is one code path.
//
// What add() keeps (the metric table's per-record value functions run there):
//   * one double per applicable per-request metric (AIPerf's record metrics and servebench's
//     schedule-anchored ones) in a per-metric column, so every per-request percentile is exact;
//     a column whose values have all been the same holds one value and a count (column.h);
//   * the request's [start, end) interval, for peak and time-weighted concurrency;
//   * counters (requests, errors, goodput, usage/OSL warnings) and the response-time window;
//   * failures as (kind, code, normalised message) groups (error_groups.h);
//   * the per-chunk series, inter_chunk_latency and per-token ITL, in SampleSeries: exact up to
//     SummaryOptions::exact_chunk_samples samples each, then a histogram with percentiles within
//     LogHistogram::kRelativeError (0.049 %).
// Bytes per request: about 8 × (applicable per-request metrics whose values vary) + 16 for the
// interval, plus the sweep rows' record (56 bytes, sweep_rows.h): up to ~380 bytes for a
// streamed chat request with usage (about 38 values), plus up to 2× while a column's vector grows
// (reserve() avoids it when the count is known). Per-chunk samples add 8 bytes per chunk gap
// until their bound, then nothing (one histogram of ~240 KiB per series). bench_metrics
// BM_AccumulatorMemory (100,000 synthetic streamed requests of 1,000 chunks, the OSL and the
// send and first-byte offsets fixed): 441 bytes per request with a vector per column, 95 with
// constant columns held as one value; docs/performance.md has the whole process's figures.
// summary_accumulator_test (MemoryPerRequestIsBounded) asserts < 700 bytes.
//
// merge() is exact: the merged summary equals the summary of all the records (floating-point
// sums up to rounding order; percentiles, counts, min and max bit for bit).
//
// Thread safety: not thread-safe; one owner at a time. merge() consumes `other`.
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/record_metrics.h"
#include "metrics/summary.h"
#include "record/request_record.h"

namespace servebench::metrics {

class SummaryAccumulator {
 public:
  explicit SummaryAccumulator(SummaryOptions options);
  ~SummaryAccumulator();
  SummaryAccumulator(SummaryAccumulator&&) noexcept;
  SummaryAccumulator& operator=(SummaryAccumulator&&) noexcept;

  // Pre-sizes the columns for `records` more records (optional; saves the growth slack).
  void reserve(size_t records);
  // REQUIRES: token counts filled (record processing done). The record may be dropped after.
  // With `values`, also fills them as compute_record_metrics(r, values, capabilities) would
  // (the same slots through the same table), so a writer need not compute them again.
  void add(const record::RequestRecord& r, RecordValues* values = nullptr);
  // Sets SummaryOptions::window_ns (the throughput denominator) for the next finish(): a time
  // slice knows its length only once its last response is in.
  void set_window_ns(int64_t window_ns) { options_.window_ns = window_ns; }
  // Folds `other` (built with the same options) into this one.
  void merge(SummaryAccumulator&& other);
  // The summary of every record added or merged so far. The const& form may be called more than
  // once (it works on a copy); the && form consumes the accumulator (its per-request columns are
  // released while the summary is built, so the end of a run does not hold them beside the
  // sweep curves).
  Summary finish() const&;
  Summary finish() &&;
  // Records added (all phases and outcomes).
  size_t size() const;
  // Bytes held for the records added so far (columns, intervals, series, error groups).
  size_t memory_bytes() const;

 private:
  struct State;
  void add_values(const record::RequestRecord& r, const RecordFacts& f, RecordValues* values);

  SummaryOptions options_;
  State* state_;
};

}  // namespace servebench::metrics
