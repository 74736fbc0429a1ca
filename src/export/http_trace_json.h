// --export-http-trace: the "trace_data" object of a profile_export.jsonl line. It holds what the
// http_req_* metrics of the same line are computed from -- the transport's timestamps (wall ns,
// null when the phase did not happen: a reused connection has no connection set-up) -- and the
// request headers as sent, each credential redacted (core/secrets.h):
//   {"request_start_ns", "connect_start_ns", "dns_done_ns", "connected_ns", "tls_done_ns",
//    "request_sent_ns", "response_start_ns", "response_end_ns", "connection_reused",
//    "bytes_sent", "bytes_received", "chunks_received", "http_status",
//    "request_headers": ["Name: value", ...]}
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "record/request_record.h"

namespace servebench::exporter {

// What every request of a run sends besides its own ids, already redacted.
struct HttpTraceContext {
  std::vector<std::string> headers;     // redacted "Name: value" lines
  std::string session_header = "X-Correlation-ID";
};

// Appends `"trace_data":{...}` (no trailing comma).
void append_http_trace(const record::RequestRecord& r, const record::RunAnchor& anchor,
                       const HttpTraceContext& context, std::string* out);

// `headers` with every credential redacted (secrets::redact_header_line).
std::vector<std::string> redacted_headers(const std::vector<std::string>& headers);

}  // namespace servebench::exporter
