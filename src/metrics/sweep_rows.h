// AIPerf 0.13's time-weighted sweep rows: concurrency, token throughput and tokens in flight as
// step functions of time over the summary's window, summarised by duration-weighted statistics
// (avg, min, max, p50, p90, p95, p99, std; the other percentiles, count and sum are NaN/0).
//
// Per record: start (request_start_ns), first token (generation start; streamed responses with
// content only), end (end_ns), ISL and OSL (successful records only). Every record with a start
// and an end is in flight over [start, end); in prefill over [start, first token), in decode over
// [first token, end). A request decodes at (OSL - 1) / (end - first token) tokens/ns and
// prefills at ISL / (first token - start), spread uniformly over those spans (AIPerf's
// request-level curves; its per-chunk variant is not computed). Tokens in flight: ISL from the
// start, plus OSL from the first token, until the end.
//
//   effective_concurrency, effective_{prefill,decode}_concurrency    requests in each span
//   effective_{prefill,decode,total}_throughput                       summed rates, tokens/sec
//   effective_{prefill,decode}_throughput_per_user                    rate / concurrency (0 when
//                                                                     nothing is in the span)
//   tokens_in_flight                                                  tokens
//   active_*: the same rate curves weighted only over the time their span has a request in it
//   (decode and its per-user form, prefill and its per-user form; total over any request).
// Effective rows are in the console's Effective table; active rows are JSON and CSV only.
// Reported as soon as one record has a start and an end.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
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
};

// The record's sweep facts, or false when it has no start or no end.
bool sweep_record(const record::RequestRecord& r, const RecordFacts& f, SweepRecord* out);

// Appends the sweep rows over [window_start_ns, window_end_ns] to `out`; nothing when no
// record has a start and an end or the window is empty.
void append_sweep_rows(const std::vector<SweepRecord>& records, int64_t window_start_ns,
                       int64_t window_end_ns, std::vector<MetricResult>* out);

}  // namespace servebench::metrics
