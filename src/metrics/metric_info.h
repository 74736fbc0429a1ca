// The metric table: one descriptor per metric servebench reports — AIPerf's (aiperf-inventory.md
// §5) and servebench's own — with its tag, AIPerf header, units, flags, the endpoint
// capabilities it needs, and how it is computed and aggregated. summarize() (through
// SummaryAccumulator) loops over this table; the console, JSON, CSV and JSONL exports,
// --goodput and --fail-on read it. Adding a metric is one row in metric_info.cc (plus its
// per-record slot in record_metrics.h when it has one value per request).
//
// Table order is the order of Summary::metrics and of the JSON export's keys; the console sorts
// by display_order, the CSV by tag.
//
// Thread safety: immutable static data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/capabilities.h"
#include "metrics/record_metrics.h"

namespace servebench::metrics {

class SampleSeries;

// AIPerf's three kinds, plus the per-chunk list metrics (one value per content chunk).
enum class MetricKind : uint8_t {
  kRecord,     // one value per request → a distribution (exact statistics)
  kChunkList,  // one value per chunk gap → a distribution (exact up to a bound, then histogram)
  kAggregate,  // a counter, sum or min/max over all records → one value
  kDerived,    // a formula over other results → one value
};

// Bit flags. The *Only flags name what the metric needs from the endpoint (needs() below).
enum MetricFlag : uint32_t {
  kNoFlags = 0,
  kNoConsole = 1u << 0,           // not in the console table (AIPerf's no_console / hidden)
  kNoCsv = 1u << 1,               // not in profile_export_aiperf.csv
  kLargerIsBetter = 1u << 2,      // goodput SLO: value >= threshold
  kErrorOnly = 1u << 3,           // computed over failed requests
  kStreamingOnly = 1u << 4,       // needs a streamed response (kCapStreams)
  kIntegerValued = 1u << 5,       // values are integers (tokens, bytes, counts)
  kTimestamp = 1u << 6,           // wall-clock ns value written as an exact integer
  kProducesTokensOnly = 1u << 7,  // needs token output (kCapProducesTokens)
  kTokenizesInputOnly = 1u << 8,  // needs token input (kCapTokenizesInput)
  kSupportsReasoning = 1u << 9,   // needs separate reasoning text (kCapReasoning)
  kServebench = 1u << 10,         // ours: written under the JSON "servebench" key
  kAdjusted = 1u << 11,           // adj_<tag>: successes + one +inf per failure, nearest rank
  kAllOutcomes = 1u << 12,        // per-record value over every started request (any outcome)
  kMediaOnly = 1u << 13,          // needs media input (kCapMedia; AIPerf's SUPPORTS_AUDIO_ONLY)
  kProducesVideoOnly = 1u << 14,  // needs a video answer (kCapProducesVideo; AIPerf's PRODUCES_VIDEO_ONLY)
};

// The console table a row is shown in (AIPerf's console_group): kDefault in the endpoint's main
// table, kUsage in "<title>: Usage" after it. Rows flagged kNoConsole are in no table.
// kSpecDecode: "<title>: Spec Decode" (speculative decoding, when the server reports it);
// kHttpTrace: the HTTP timing table, printed only with --show-trace-timing; kEffective:
// "<title>: Effective" (AIPerf 0.13's coordinated-omission-aware rows); kActive: "<title>:
// Active" (AIPerf 0.13's phase-active sweep rows).
enum class ConsoleGroup : uint8_t {
  kDefault,
  kUsage,
  kSpecDecode,
  kHttpTrace,
  kEffective,
  kActive
};
// The suffix of the group's table title ("" for kDefault, "Usage", "Spec Decode", "HTTP Trace",
// "Effective", "Active").
std::string_view console_group_name(ConsoleGroup g);

// How a row's result is produced.
enum class Aggregate : uint8_t {
  kDistribution,  // statistics of the `slot` column (kRecord) or of the chunk list (kChunkList)
  kSum,           // sum of the `slot` column; reported when the column is not empty
  kFormula,       // `formula` over ScalarInputs (counters, window, sums, other columns)
};

// What formulas read: the accumulated counters of one summary. Base units (ns, tokens).
struct ScalarInputs {
  int64_t request_count = 0;            // successful requests
  int64_t error_request_count = 0;      // failed requests (dropped ones excluded)
  int64_t cancelled_request_count = 0;  // dropped by the run itself (grace, Ctrl-C)
  int64_t good_request_count = 0;
  bool goodput_enabled = false;
  int64_t usage_discrepancy_count = 0;
  int64_t osl_mismatch_count = 0;
  int64_t window_start_ns = 0;  // steady; 0 when there is no window
  int64_t window_end_ns = 0;
  int64_t window_start_wall_ns = 0;  // the same instants on the wall clock
  int64_t window_end_wall_ns = 0;
  int64_t duration_ns = 0;  // throughput denominator (window, or the option's)
  int64_t late_sends = 0;
  int64_t sends_with_intended = 0;
  int64_t peak_concurrency = 0;
  double avg_concurrency = 0;
  bool client_limited = false;
  // Per-slot sample counts and sums (successful records; error_isl over failures).
  int64_t slot_count[kNumRecordSlots] = {};
  double slot_sum[kNumRecordSlots] = {};

  bool has(RecordMetric m) const { return slot_count[static_cast<size_t>(m)] > 0; }
  double sum(RecordMetric m) const { return slot_sum[static_cast<size_t>(m)]; }
  double seconds() const { return static_cast<double>(duration_ns) / 1e9; }
};

// A formula's result in base units; `exact` holds kTimestamp values (wall ns) exactly.
struct ScalarValue {
  double value = 0;
  int64_t exact = 0;
};
// Sets *out and returns true when the metric is reported for this summary.
using FormulaFn = bool (*)(const ScalarInputs&, ScalarValue* out);
// The value of a per-record metric for one record; NaN when it does not apply.
using RecordValueFn = double (*)(const RecordFacts&);
// Adds a record's samples of a per-chunk list metric to `series`.
using ChunkListFn = void (*)(const record::RequestRecord&, SampleSeries* series);
// True when a record's samples of a chunk list equal those of the list it mirrors.
using MirrorFn = bool (*)(const record::RequestRecord&);

struct MetricInfo {
  std::string_view tag;
  std::string_view header;        // AIPerf's header, e.g. "Time to First Token"
  std::string_view display_unit;  // e.g. "ms", "tokens/sec/user", "requests"
  double display_divisor;         // base value / divisor = display value (ns → ms: 1e6)
  MetricKind kind;
  uint32_t flags;
  int display_order;  // console row order (smaller first); 0 = after the rest
  Aggregate aggregate = Aggregate::kDistribution;
  RecordMetric slot = RecordMetric::kNone;  // kRecord rows, adj_ rows and sums: the column
  RecordValueFn value = nullptr;            // kRecord rows that own their slot
  ChunkListFn chunks = nullptr;             // kChunkList rows
  // A chunk list that equals the chunk list `mirrors` as long as every record satisfies
  // `mirrors_while` is not stored twice until a record does not (per-token ITL = ICL while
  // every chunk carries one token).
  std::string_view mirrors = {};
  MirrorFn mirrors_while = nullptr;
  FormulaFn formula = nullptr;  // kFormula rows
  ConsoleGroup group = ConsoleGroup::kDefault;

  bool has(MetricFlag f) const { return (flags & f) != 0; }
  double to_display(double base) const { return base / display_divisor; }
  double from_display(double display) const { return display * display_divisor; }
  bool distribution() const { return aggregate == Aggregate::kDistribution; }
  // The endpoint capabilities the metric needs (from its *Only flags).
  core::Capabilities needs() const;
  // True when an endpoint with `caps` reports this metric.
  bool applies_to(core::Capabilities caps) const { return (needs() & ~caps) == 0; }
};

// Looks a tag up; nullptr when unknown.
const MetricInfo* find_metric(std::string_view tag);

// All registered metrics, in table order.
const MetricInfo* all_metrics(size_t* count);

// The row that owns per-record slot `m` (its value function); nullptr for kNone.
const MetricInfo* slot_metric(RecordMetric m);

}  // namespace servebench::metrics
