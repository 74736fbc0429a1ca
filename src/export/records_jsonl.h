// Per-request exports.
//
// profile_export.jsonl (--export-level records): one line per request, AIPerf's shape
//   {"metadata": {...}, "metrics": {tag: {"value": v, "unit": u}}, "error": null |
//    {"code", "type", "message"}, "servebench": {...}}
// metadata: session_num, x_request_id, x_correlation_id, conversation_id, turn_index,
// credit_issued_ns, request_start_ns, request_ack_ns (first byte), request_end_ns (wall ns,
// null when it did not happen), worker_id, benchmark_phase, was_cancelled,
// cancellation_time_ns, record_processor_id ("record_processor_<thread>"), AIPerf 0.13's
// phase_index, profiling_index, phase_name, phase_kind, context_overflow_skip (false),
// agent_depth (0) and root_correlation_id (= x_correlation_id), plus intended_ns and url_index.
// Metric values are in display units
// (ms for times); inter_chunk_latency is a list. Failed requests carry only error_isl.
// Cancelled requests are kept, marked was_cancelled, error type "cancelled", code 499.
// "servebench" holds our per-request extras (schedule_lag, *_from_intended in ms) and what a
// reader (records_reader.h) needs, beyond AIPerf's keys, to rebuild the record for the summary:
// request_index, http_status, input_tokens, output_tokens, reasoning_tokens,
// requested_output_tokens (-1 = unknown), output_items (only when >= 0), cancel_reason ("rate",
// "grace", "interrupt"; only on cancelled requests), request_sent_ns and response_complete_ns
// (wall ns or null), streaming, on a new connection its set-up times (connect_start_ns,
// dns_done_ns, connected_ns, tls_done_ns: wall ns), response_reads, and for successful requests with content chunks:
//   chunk_kinds   one letter per content chunk ('c' content, 'r' reasoning, 't' tool call);
//                 omitted when every chunk is 'c' and the count follows from the times (streamed:
//                 1 + the inter_chunk_latency list; a body: one chunk);
//   chunk_tokens  each content chunk's token count; omitted when every chunk carries one token.
// Content-chunk times are not repeated: time_to_first_token and the inter_chunk_latency list
// are written with the shortest round-trip digits of ns / 1e6, so round(ms * 1e6) gives back the
// exact ns (the error of the two roundings is far below 0.5 ns for any interval under 10^6 s);
// a body's single time is request_latency.
//
// Line order: completion order (the order record processing finishes them), not request order;
// sort by servebench.request_index for issue order. Warm-up and profiling lines interleave only
// at the phase boundary.
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

#include "core/capabilities.h"
#include "core/result.h"
#include "export/http_trace_json.h"
#include "metrics/record_metrics.h"
#include "record/request_record.h"

namespace servebench::exporter {

// "rate", "grace", "interrupt" ("none" for kNone): the JSONL name of a cancel reason.
const char* cancel_reason_name(record::CancelReason reason);

// Appends one profile_export.jsonl line (with '\n') for `r`. `capabilities` are the run's
// endpoint's, so a line holds exactly the per-request metrics the summary counts.
// With `trace` (--export-http-trace) the line also carries "trace_data" (http_trace_json.h).
void append_record_line(const record::RequestRecord& r, const record::RunAnchor& anchor,
                        std::string* out,
                        core::Capabilities capabilities = core::kTextGenerationCaps,
                        const HttpTraceContext* trace = nullptr);

// The same line from values already computed for `r`. REQUIRES: `values` are what
// metrics::compute_record_metrics(r, &values, capabilities) gives (SummaryAccumulator::add
// fills them so).
void append_record_line(const record::RequestRecord& r, const record::RunAnchor& anchor,
                        const metrics::RecordValues& values, std::string* out,
                        const HttpTraceContext* trace = nullptr);

// The same line through a cursor (line_cursor.h): a batch's lines written straight into the
// JSONL writer's block.
class LineCursor;
void append_record_line(const record::RequestRecord& r, const record::RunAnchor& anchor,
                        const metrics::RecordValues& values, LineCursor* out,
                        const HttpTraceContext* trace = nullptr);

// Appends one profile_export_raw.jsonl line.
void append_raw_line(const record::RequestRecord& r, const record::RunAnchor& anchor,
                     const std::vector<std::string_view>& payloads, std::string* out);

// Writes all records to `path` (one line each) with the given line function.
// `payloads` (raw lines only): request bodies indexed by RequestRecord::payload_index.
Status write_jsonl(const std::string& path, const std::vector<record::RequestRecord>& records,
                   const record::RunAnchor& anchor, bool raw,
                   const std::vector<std::string_view>& payloads = {});

}  // namespace servebench::exporter
