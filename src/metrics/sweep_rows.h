// AIPerf 0.13's time-weighted sweep rows: concurrency, token throughput and tokens in flight as
// step functions of time over the summary's window, summarised by duration-weighted statistics
// (avg, min, max, p50, p90, p95, p99, std; the other percentiles, count and sum are NaN/0).
//
// Per record: start (request_start_ns), first token (generation start; streamed responses with
// content only), end (end_ns), ISL and OSL (successful records only). Every record with a start
// and an end is in flight over [start, end); in prefill over [start, first token), in decode over
// [first token, end). A request prefills at ISL / (first token - start) tokens/ns. Decode, as
// AIPerf by default, follows the response's chunks: the OSL - 1 tokens after the first are split
// evenly over its non-zero inter-chunk gaps, each gap carrying its share at share / gap; tokens
// in flight are ISL from the start, 1 at the first token and (OSL - 1) / gaps more at each later
// chunk, until the end. When the chunk gaps are not all held (past the per-chunk bound, or with
// the inter-chunk list off) both fall back to AIPerf's request-level curves: OSL - 1 tokens
// spread evenly over [first token, end), and OSL added at the first token. Total throughput is
// always prefill plus the request-level decode curve, as in AIPerf.
//
//   effective_concurrency, effective_{prefill,decode}_concurrency    requests in each span
//   effective_{prefill,decode,total}_throughput                       summed rates, tokens/sec
//   effective_{prefill,decode}_throughput_per_user                    rate / concurrency (0 when
//                                                                     nothing is in the span)
//   tokens_in_flight                                                  tokens
//   active_*: the same rate curves weighted only over the time their span has a request in it
//   (decode and its per-user form, prefill and its per-user form; total over any request).
// Effective rows and tokens_in_flight are in the console's Effective table, active rows in its
// Active table (AIPerf's MetricConsoleGroup.EFFECTIVE and .ACTIVE).
// Reported as soon as one record has a start and an end.
//
// Windows: the curves are built once (SweepCurves) and any window [start, end] of them is
// summarised in O(log N + steps inside it), as AIPerf's SweepLineCurves.compute_metrics: the
// summary uses its own window, each time slice the slice's window of the run's curves.
//
// Thread safety: pure functions; a SweepData or SweepCurves is a value with one owner (const
// SweepCurves may be read from several threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "metrics/summary.h"

namespace servebench::metrics {

// Times stay integers until they are taken relative to the window start, so the curves do not
// depend on the clock's origin (a double holds epoch ns only to ~256 ns).
struct SweepRecord {
  int64_t start_ns = 0;
  int64_t first_ns = 0;  // 0 when there is no first token
  int64_t end_ns = 0;
  double isl = 0;  // NaN when unknown
  double osl = 0;  // NaN when unknown
  size_t gap_begin = 0;     // its inter-chunk gaps: SweepData::gaps[gap_begin, + gap_count)
  uint32_t gap_count = 0;
};

// What the sweep rows keep per summary: one SweepRecord per record with a start and an end, and
// the inter-chunk gaps of the successful streamed ones while they fit `gap_limit`.
struct SweepData {
  std::vector<SweepRecord> records;
  std::vector<double> gaps;  // ns
  bool per_chunk = true;     // every record's gaps are held
  size_t gap_limit = SIZE_MAX;

  void add(const record::RequestRecord& r, const RecordFacts& f);
  void merge(SweepData&& other);  // `other` is left empty
  size_t memory_bytes() const;
};

// The step functions of a SweepData (times relative to `origin_ns`, exact within ~104 days of
// it), built in O(N log N) for N records and chunk gaps.
class SweepCurves {
 public:
  SweepCurves(const SweepData& data, int64_t origin_ns);
  ~SweepCurves();
  SweepCurves(SweepCurves&&) noexcept;
  SweepCurves& operator=(SweepCurves&&) noexcept;

  // False when no record has a start and an end (then there are no rows).
  bool has_records() const;
  // Appends the sweep rows over [window_start_ns, window_end_ns] to `out`; nothing when there
  // are no records or the window is empty. The curves' value at the window start is the one
  // held from the last step before it (a request in flight across the boundary counts).
  void append_rows(int64_t window_start_ns, int64_t window_end_ns,
                   std::vector<MetricResult>* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// SweepCurves(data, window_start_ns).append_rows(window_start_ns, window_end_ns, out).
void append_sweep_rows(const SweepData& data, int64_t window_start_ns, int64_t window_end_ns,
                       std::vector<MetricResult>* out);

// Whether `info` is one of the rows above.
bool is_sweep_row(const MetricInfo& info);

}  // namespace servebench::metrics
