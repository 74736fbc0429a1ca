// Per-request exports.
//
// profile_export.jsonl (--export-level records): one line per request, AIPerf's shape
//   {"metadata": {...}, "metrics": {tag: {"value": v, "unit": u}}, "error": null |
//    {"code", "type", "message"}, "servebench": {...}}
// metadata: session_num, x_request_id, x_correlation_id, conversation_id, turn_index,
// credit_issued_ns, request_start_ns, request_ack_ns (first byte), request_end_ns (wall ns,
// null when it did not happen), worker_id, benchmark_phase, was_cancelled,
// cancellation_time_ns, plus intended_ns and url_index. Metric values are in display units
// (ms for times); inter_chunk_latency is a list. Failed requests carry only error_isl.
// Cancelled requests are kept, marked was_cancelled, error type "cancelled", code 499.
// "servebench" holds our per-request extras (schedule_lag, *_from_intended in ms).
//
// profile_export_raw.jsonl (--export-level raw): metadata plus start_perf_ns, status,
// streaming, finish_reason, usage and every response event {perf_ns, kind, tokens, text}.
// "payload" is the request body as sent (looked up by RequestRecord::payload_index in
// `payloads`; null when unknown).
//
// Thread safety: pure functions over the records; writers own their stream.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "record/request_record.h"

namespace servebench::exporter {

// Appends one profile_export.jsonl line (with '\n') for `r`.
void append_record_line(const record::RequestRecord& r, const record::RunAnchor& anchor,
                        std::string* out);

// Appends one profile_export_raw.jsonl line.
void append_raw_line(const record::RequestRecord& r, const record::RunAnchor& anchor,
                     const std::vector<std::string_view>& payloads, std::string* out);

// Writes all records to `path` (one line each) with the given line function.
// `payloads` (raw lines only): request bodies indexed by RequestRecord::payload_index.
Status write_jsonl(const std::string& path, const std::vector<record::RequestRecord>& records,
                   const record::RunAnchor& anchor, bool raw,
                   const std::vector<std::string_view>& payloads = {});

}  // namespace servebench::exporter
