#include "export/http_trace_json.h"

#include "core/json_text.h"
#include "core/secrets.h"

namespace servebench::exporter {
namespace {

void key(std::string* out, const char* k) {
  out->push_back('"');
  out->append(k);
  out->append("\":");
}

void wall(std::string* out, const char* k, const record::RunAnchor& a, int64_t steady, bool comma) {
  key(out, k);
  if (steady > 0) {
    out->append(std::to_string(a.to_wall_ns(steady)));
  } else {
    out->append("null");
  }
  if (comma) out->push_back(',');
}

void header(std::string* out, std::string_view line, bool first) {
  if (!first) out->push_back(',');
  core::append_json_string(core::secrets::scrub(line), out);
}

}  // namespace

std::vector<std::string> redacted_headers(const std::vector<std::string>& headers) {
  std::vector<std::string> out;
  out.reserve(headers.size());
  for (const auto& h : headers) out.push_back(core::secrets::redact_header_line(h));
  return out;
}

void append_http_trace(const record::RequestRecord& r, const record::RunAnchor& a,
                       const HttpTraceContext& context, std::string* out) {
  key(out, "trace_data");
  out->push_back('{');
  wall(out, "request_start_ns", a, r.request_start_ns, true);
  wall(out, "connect_start_ns", a, r.conn_start_ns, true);
  wall(out, "dns_done_ns", a, r.dns_done_ns, true);
  wall(out, "connected_ns", a, r.connected_ns, true);
  wall(out, "tls_done_ns", a, r.tls_done_ns, true);
  wall(out, "request_sent_ns", a, r.request_sent_ns, true);
  wall(out, "response_start_ns", a, r.first_byte_ns, true);
  wall(out, "response_end_ns", a, r.end_ns, true);
  key(out, "connection_reused");
  out->append(r.connection_reused ? "true," : "false,");
  key(out, "bytes_sent");
  out->append(std::to_string(r.request_bytes)).push_back(',');
  key(out, "bytes_received");
  out->append(std::to_string(r.response_bytes)).push_back(',');
  key(out, "chunks_received");
  out->append(std::to_string(r.response_reads)).push_back(',');
  key(out, "http_status");
  out->append(std::to_string(r.http_status)).push_back(',');
  key(out, "request_headers");
  out->push_back('[');
  bool first = true;
  for (const auto& h : context.headers) {
    header(out, h, first);
    first = false;
  }
  header(out, "X-Request-ID: " + r.x_request_id, first);
  header(out, context.session_header + ": " + r.x_correlation_id, false);
  out->append("]}");
}

}  // namespace servebench::exporter
