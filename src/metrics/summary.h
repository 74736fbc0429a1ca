// summarize(): the run summary as a pure function of the records (DESIGN.md: metrics are pure).
// Produces AIPerf's record distributions, aggregates and derived metrics (aiperf-inventory.md
// §5.2-5.4, §5.6) plus servebench's own rows (schedule-anchored latencies, schedule lag, the
// client-limited verdict, concurrency, per-token ITL).
//
// Semantics (docs/metrics.md has the full table):
//   * request_count = successful records; error_request_count = failed records, including
//     --request-cancellation-rate cancellations (code 499, as AIPerf); records dropped by the run
//     itself (grace-period expiry, Ctrl-C: RequestRecord::dropped()) are neither, only counted.
//   * Latency distributions hold successful requests only. When requests failed, adj_<tag>
//     adds one +inf sample per failure (nearest-rank percentiles, no std).
//   * benchmark_duration = max(response end) - min(request start) over successful requests
//     (response end: the last content chunk, or response_complete_ns for endpoints without
//     token output; all non-dropped requests when none succeeded); an explicit window replaces
//     it for time slices.
//   * Every row comes from the metric table (metric_info.h), in table order; a row whose
//     required capabilities are missing from SummaryOptions::capabilities is not reported.
//
// Thread safety: pure function; the result is a value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/capabilities.h"
#include "metrics/error_groups.h"
#include "metrics/metric_info.h"
#include "metrics/slo.h"
#include "metrics/stats.h"
#include "record/request_record.h"

namespace servebench::metrics {

struct MetricResult {
  const MetricInfo* info = nullptr;
  bool distribution = false;  // record or chunk-list metric: `stats` is set; otherwise `value`
  Stats stats;                // base units
  double value = 0;           // base units
  int64_t int_value = 0;      // exact value of kTimestamp metrics (wall ns)

  std::string_view tag() const { return info->tag; }
};

// servebench's run-level facts besides its metric rows (which live in Summary::metrics with the
// kServebench flag); written under the "servebench" key of the JSON export.
struct Extras {
  int64_t sends_with_intended = 0;
  int64_t late_sends = 0;  // schedule lag > kLateSendThresholdNs
  double late_send_fraction = 0;
  bool client_limited = false;
  std::string client_limited_reason;
  int64_t peak_concurrency = 0;
  double avg_concurrency = 0;  // time-weighted over first start .. last end
  int64_t cancelled_request_count = 0;
  std::vector<std::pair<std::string, int64_t>> errors_by_kind;  // sorted by kind name
};

inline constexpr int64_t kLateSendThresholdNs = 1'000'000;     // 1 ms
inline constexpr double kClientLimitedLateFraction = 0.05;     // > 5 % of sends late
inline constexpr int64_t kClientLimitedLagP99Ns = 10'000'000;  // or lag p99 > 10 ms
// Per-chunk series (inter_chunk_latency, per-token ITL) stay exact up to this many samples each
// (8 bytes per sample: 32 MB per series), then use a histogram (SampleSeries).
inline constexpr size_t kDefaultExactChunkSamples = 4'000'000;

struct SummaryOptions {
  std::vector<Slo> slos;  // --goodput
  // The two per-chunk list metrics, inter_chunk_latency and our per-token ITL, hold one sample
  // per chunk (16M for 1M requests of 16 chunks); false skips both.
  bool inter_chunk_latency = true;
  // Samples per per-chunk series kept exactly; past it, percentiles are within
  // LogHistogram::kRelativeError (0.049 %).
  size_t exact_chunk_samples = kDefaultExactChunkSamples;
  int64_t window_ns = 0;     // > 0: throughputs divide by this window (time slices)
  int max_threads = 0;       // distributions computed on up to this many threads (0 = cores)
  record::RunAnchor anchor;  // steady → wall, for min/max timestamps
  // The endpoint's capabilities: metrics that need what it lacks (tokens, streaming) are not
  // reported, as AIPerf drops TTFT/ITL/OSL rows for embeddings.
  core::Capabilities capabilities = core::kTextGenerationCaps;
  // A fixed-schedule (trace) run: AIPerf's replay_sched_lag_* rows (metrics/replay_lag_rows.h).
  // Run-scoped: time slices never carry them.
  bool replay_lag_rows = false;
  // false: no time-weighted sweep data or rows (a time slice: it reads its window of the whole
  // run's curves instead, timeslices.h).
  bool sweep_rows = true;
};

struct Summary {
  std::vector<MetricResult> metrics;  // metric table order; servebench's rows included
  int64_t request_count = 0;
  int64_t error_request_count = 0;
  int64_t usage_discrepancy_count = 0;
  int64_t osl_mismatch_count = 0;
  bool goodput_enabled = false;
  std::vector<ErrorGroup> error_summary;  // most frequent first
  Extras extras;

  const MetricResult* find(std::string_view tag) const;
  // `tag.stat` in display units, for --fail-on and tests: any row of the metric table that this
  // summary reports, servebench's included. Scalars have only "avg". False when the metric or
  // statistic is absent.
  bool lookup(std::string_view tag, std::string_view stat, double* display_value) const;
};

// The summary of `records` (SummaryAccumulator over them: one code path).
Summary summarize(const std::vector<const record::RequestRecord*>& records,
                  const SummaryOptions& options);

// Convenience: every record of `phase` in `records`.
Summary summarize_phase(const std::vector<record::RequestRecord>& records, record::Phase phase,
                        const SummaryOptions& options);

}  // namespace servebench::metrics
