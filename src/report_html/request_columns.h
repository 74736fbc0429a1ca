// Request columns: the per-request facts the report's panels and `servebench compare` need,
// read back from a run's profile_export.jsonl (export/records_reader.h) one record at a time and
// kept as plain columns (about 100 bytes per request), so a 200,000-request run costs ~20 MB.
//
// Only profiling-phase records are kept. Times are wall-clock ns as the file has them; per-request
// metric values come from the metric table's own value functions (metrics/record_metrics.h), in
// display units (ms, tokens), NaN where a metric does not apply (failed requests, no tokens).
//
// Thread safety: plain value type; read_request_columns reads its file on the calling thread.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "metrics/record_metrics.h"
#include "record/request_record.h"

namespace servebench::report_html {

// The per-request metrics kept, in this order (Column::values index).
inline constexpr metrics::RecordMetric kColumnMetrics[] = {
    metrics::RecordMetric::kTtft,           metrics::RecordMetric::kTtst,
    metrics::RecordMetric::kItl,            metrics::RecordMetric::kRequestLatency,
    metrics::RecordMetric::kIsl,            metrics::RecordMetric::kOsl,
    metrics::RecordMetric::kOutputTpsPerUser, metrics::RecordMetric::kScheduleLag,
    metrics::RecordMetric::kTtftFromIntended, metrics::RecordMetric::kLatencyFromIntended,
};
inline constexpr size_t kNumColumnMetrics = std::size(kColumnMetrics);

// Index of `m` in kColumnMetrics, or -1.
int column_index(metrics::RecordMetric m);
// Index of the column whose metric has AIPerf tag `tag`, or -1.
int column_index(const std::string& tag);

struct RequestColumns {
  // Per request, in file order.
  std::vector<int64_t> start_ns;     // request_start (wall)
  std::vector<int64_t> intended_ns;  // intended send (wall); 0 when unknown
  std::vector<int64_t> end_ns;       // response end, else the record's end (wall)
  std::vector<int64_t> first_ns;     // first content chunk (wall); 0 when none
  std::vector<uint8_t> error;        // record::ErrorKind (kNone = success)
  std::vector<uint8_t> dropped;      // cancelled by the run itself (grace, Ctrl-C)
  std::vector<double> values[kNumColumnMetrics];
  // Output tokens by their chunk's arrival, in 10 ms buckets of wall time (bucket = ns / 1e7).
  std::unordered_map<int64_t, int64_t> tokens_by_bucket;
  int64_t warmup_records = 0;  // skipped

  size_t size() const { return start_ns.size(); }
  // Pre-sizes every column for `records` more requests (a live run knows its request count):
  // the columns then fill their pages once instead of doubling, copying and keeping up to half
  // of their capacity unused.
  void reserve(size_t records);
  const std::vector<double>& column(metrics::RecordMetric m) const {
    return values[column_index(m)];
  }
  // The earliest request start; 0 when there is no request.
  int64_t origin_ns() const;
};

inline constexpr int64_t kTokenBucketNs = 10'000'000;

// Adds one record (skips warm-up records). `anchor` maps the record's steady ns to wall ns: a
// live run's anchor, or the default (wall = steady) for records read back from the JSONL.
// `values`, when given, are the record's metric values computed under `values_caps` (a live
// run's SummaryAccumulator::add): used when they equal what compute_record_metrics gives under
// the record's own capabilities (metrics::same_record_values), computed again otherwise.
void add_record(const record::RequestRecord& r, RequestColumns* out,
                const core::WallAnchor& anchor = {},
                const metrics::RecordValues* values = nullptr,
                core::Capabilities values_caps = core::kCapNone);

// Reads every record of `jsonl_path`. Fails like exporter::for_each_record.
Result<RequestColumns> read_request_columns(const std::string& jsonl_path);

}  // namespace servebench::report_html
