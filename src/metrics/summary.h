// summarize(): the run summary as a pure function of the records (DESIGN.md: metrics are pure).
// Produces AIPerf's record distributions, aggregates and derived metrics (aiperf-inventory.md
// §5.2-5.4, §5.6) plus servebench's extras (schedule-anchored latencies, schedule lag, the
// client-limited verdict, concurrency, per-token ITL).
//
// Semantics (docs/metrics.md has the full table):
//   * request_count = successful records; error_request_count = failed records, including
//     --request-cancellation-rate cancellations (code 499, as AIPerf); records dropped by the run
//     itself (grace-period expiry, Ctrl-C: RequestRecord::dropped()) are neither, only counted.
//   * Latency distributions hold successful requests only. When requests failed, adj_<tag>
//     adds one +inf sample per failure (nearest-rank percentiles, no std).
//   * benchmark_duration = max(last content chunk) - min(request start) over successful
//     requests (all non-cancelled requests when none succeeded); an explicit window replaces
//     it for time slices.
//
// Thread safety: pure function; the result is a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/capabilities.h"
#include "metrics/metric_info.h"
#include "metrics/slo.h"
#include "metrics/stats.h"
#include "record/request_record.h"

namespace servebench::metrics {

struct MetricResult {
  const MetricInfo* info = nullptr;
  bool distribution = false;  // record metric: `stats` is set; otherwise `value`
  Stats stats;                // base units
  double value = 0;           // base units
  int64_t int_value = 0;      // exact value of kTimestamp metrics (wall ns)

  std::string_view tag() const { return info->tag; }
};

struct ErrorGroup {
  int32_t code = 0;      // HTTP status, 0 when none
  std::string type;      // error_kind_name()
  std::string message;
  int64_t count = 0;
};

// servebench's additions; written under the "servebench" key of the JSON export.
struct Extras {
  bool has_ttft_from_intended = false;
  Stats ttft_from_intended;        // first content chunk - intended_ns (ns)
  bool has_latency_from_intended = false;
  Stats latency_from_intended;     // last content chunk - intended_ns (ns)
  bool has_schedule_lag = false;
  Stats schedule_lag;              // request_start - intended_ns (ns), every started request
  bool has_per_token_itl = false;
  Stats per_token_itl;             // ns
  int64_t sends_with_intended = 0;
  int64_t late_sends = 0;          // schedule lag > kLateSendThresholdNs
  double late_send_fraction = 0;
  bool client_limited = false;
  std::string client_limited_reason;
  int64_t peak_concurrency = 0;
  double avg_concurrency = 0;      // time-weighted over first start .. last end
  int64_t cancelled_request_count = 0;
  std::vector<std::pair<std::string, int64_t>> errors_by_kind;  // sorted by kind name
};

inline constexpr size_t kMaxErrorGroups = 50;                     // distinct error messages kept
inline constexpr int64_t kLateSendThresholdNs = 1'000'000;        // 1 ms
inline constexpr double kClientLimitedLateFraction = 0.05;          // > 5 % of sends late
inline constexpr int64_t kClientLimitedLagP99Ns = 10'000'000;       // or lag p99 > 10 ms

struct SummaryOptions {
  std::vector<Slo> slos;        // --goodput
  // The two per-chunk list metrics, inter_chunk_latency and our per-token ITL, hold one sample
  // per chunk (16M for 1M requests of 16 chunks); false skips both.
  bool inter_chunk_latency = true;
  int64_t window_ns = 0;        // > 0: throughputs divide by this window (time slices)
  int max_threads = 0;          // distributions computed on up to this many threads (0 = cores)
  record::RunAnchor anchor;     // steady → wall, for min/max timestamps
  // The endpoint's capabilities: metrics that need what it lacks (tokens, streaming) are not
  // reported, as AIPerf drops TTFT/ITL/OSL rows for embeddings.
  core::Capabilities capabilities = core::kTextGenerationCaps;
};

struct Summary {
  std::vector<MetricResult> metrics;
  int64_t request_count = 0;
  int64_t error_request_count = 0;
  int64_t usage_discrepancy_count = 0;
  int64_t osl_mismatch_count = 0;
  bool goodput_enabled = false;
  std::vector<ErrorGroup> error_summary;  // most frequent first
  Extras extras;

  const MetricResult* find(std::string_view tag) const;
  // `tag.stat` in display units, for --fail-on and tests. Knows the extras too
  // (schedule_lag, time_to_first_token_from_intended, request_latency_from_intended,
  // per_token_inter_token_latency, late_send_fraction, peak_concurrency, avg_concurrency,
  // cancelled_request_count). False when the metric or statistic is absent.
  bool lookup(std::string_view tag, std::string_view stat, double* display_value) const;
};

Summary summarize(const std::vector<const record::RequestRecord*>& records,
                  const SummaryOptions& options);

// Convenience: every record of `phase` in `records`.
Summary summarize_phase(const std::vector<record::RequestRecord>& records, record::Phase phase,
                        const SummaryOptions& options);

}  // namespace servebench::metrics
