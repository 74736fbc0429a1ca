#include "metrics/http_trace_rows.h"

#include <cmath>

namespace servebench::metrics::http_trace_rows {
namespace {

using F = RecordFacts;
using S = RecordMetric;

double num(int64_t v) { return static_cast<double>(v); }
bool new_conn(const record::RequestRecord& r) { return r.conn_start_ns > 0 && r.connected_ns > 0; }

double blocked(const F& f) {
  const auto& r = *f.r;
  const int64_t until = r.conn_start_ns > 0 ? r.conn_start_ns : send_start_ns(r);
  return until >= r.request_start_ns ? num(until - r.request_start_ns) : 0.0;
}
double dns(const F& f) {
  const auto& r = *f.r;
  return new_conn(r) && r.dns_done_ns >= r.conn_start_ns ? num(r.dns_done_ns - r.conn_start_ns)
                                                         : 0.0;
}
double connecting(const F& f) {
  const auto& r = *f.r;
  if (!new_conn(r)) return 0.0;
  const int64_t from = r.dns_done_ns > 0 ? r.dns_done_ns : r.conn_start_ns;
  return num(send_start_ns(r) - from);
}
double tls(const F& f) {
  const auto& r = *f.r;
  return new_conn(r) && r.tls_done_ns > 0 ? num(r.tls_done_ns - r.connected_ns) : 0.0;
}
double sending(const F& f) {
  const auto& r = *f.r;
  return r.request_sent_ns > 0 ? num(r.request_sent_ns - send_start_ns(r)) : NAN;
}
double waiting(const F& f) {
  const auto& r = *f.r;
  return r.request_sent_ns > 0 && r.first_byte_ns > 0 ? num(r.first_byte_ns - r.request_sent_ns)
                                                      : NAN;
}
double receiving(const F& f) {
  const auto& r = *f.r;
  return r.first_byte_ns > 0 && r.end_ns > 0 ? num(r.end_ns - r.first_byte_ns) : NAN;
}
double duration(const F& f) {
  const auto& r = *f.r;
  return r.end_ns > 0 ? num(r.end_ns - send_start_ns(r)) : NAN;
}
double overhead(const F& f) { return blocked(f) + dns(f) + connecting(f); }
double total(const F& f) {
  const double d = duration(f);
  return std::isnan(d) ? NAN : overhead(f) + d;
}
double data_sent(const F& f) { return f.r->request_bytes > 0 ? num(f.r->request_bytes) : NAN; }
double data_received(const F& f) {
  return f.r->response_bytes > 0 ? num(f.r->response_bytes) : NAN;
}
double reused(const F& f) { return f.r->connection_reused ? 1.0 : 0.0; }
double chunks_received(const F& f) {
  return f.r->response_reads > 0 ? num(f.r->response_reads) : NAN;
}
double chunks_sent(const F& f) {
  return f.r->request_writes > 0 ? num(f.r->request_writes) : NAN;
}

// Display: ms for times; KB (1024 bytes, AIPerf's unit) for sizes; counts and the reuse
// ratio as they are.
struct Fn {
  S slot;
  RecordValueFn fn;
  double divisor;
  std::string_view unit;
};
constexpr double kMs = 1e6;
constexpr double kKiB = 1024;
constexpr Fn kFns[] = {
    {S::kHttpReqBlocked, blocked, kMs, "ms"},
    {S::kHttpReqDnsLookup, dns, kMs, "ms"},
    {S::kHttpReqConnecting, connecting, kMs, "ms"},
    {S::kHttpReqTlsHandshaking, tls, kMs, "ms"},
    {S::kHttpReqSending, sending, kMs, "ms"},
    {S::kHttpReqWaiting, waiting, kMs, "ms"},
    {S::kHttpReqReceiving, receiving, kMs, "ms"},
    {S::kHttpReqDuration, duration, kMs, "ms"},
    {S::kHttpReqConnectionOverhead, overhead, kMs, "ms"},
    {S::kHttpReqTotal, total, kMs, "ms"},
    {S::kHttpReqDataSent, data_sent, kKiB, "KB"},
    {S::kHttpReqDataReceived, data_received, kKiB, "KB"},
    {S::kHttpReqConnectionReused, reused, 1, "ratio"},
    {S::kHttpReqChunksReceived, chunks_received, 1, "count"},
    {S::kHttpReqChunksSent, chunks_sent, 1, "count"},
};

}  // namespace

int64_t send_start_ns(const record::RequestRecord& r) {
  if (r.conn_start_ns > 0 && r.connected_ns > 0)
    return r.tls_done_ns > 0 ? r.tls_done_ns : r.connected_ns;
  return r.request_start_ns;
}

MetricInfo row(std::string_view tag, std::string_view header, RecordMetric slot, int order) {
  for (const Fn& f : kFns) {
    if (f.slot != slot) continue;
    // In the CSV as AIPerf has them (its CSV leaves out only internal and experimental rows).
    MetricInfo m{tag, header, f.unit, f.divisor, MetricKind::kRecord,
                 static_cast<uint32_t>(f.divisor == kMs ? kNoFlags : kIntegerValued), order};
    m.slot = slot;
    m.value = f.fn;
    m.group = ConsoleGroup::kHttpTrace;
    return m;
  }
  return MetricInfo{tag, header, "", 1, MetricKind::kRecord, kNoConsole | kNoCsv, 0};
}

}  // namespace servebench::metrics::http_trace_rows
