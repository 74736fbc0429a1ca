// The metric table's HTTP timing rows (metric_info.cc): k6's names as AIPerf exports them
// (http_req_*), from the transport's own timestamps in the record (record/request_record.h).
// Internal to src/metrics/.
//
// Phases of one request (steady ns; a reused connection has no set-up, so blocked, dns_lookup,
// connecting and tls_handshaking are 0 there):
//   blocked          request_start → connection set-up began (or → sending began when reused)
//   dns_lookup       set-up began → name resolved
//   connecting       name resolved → connection ready (TCP, plus TLS for https: AIPerf's meaning)
//   tls_handshaking  TCP connected → TLS done (k6's; part of connecting)
//   sending          connection ready → request fully written
//   waiting          request written → first response byte (TTFB)
//   receiving        first response byte → response complete
//   duration         sending + waiting + receiving (k6: connection set-up excluded)
//   connection_overhead  blocked + dns_lookup + connecting
//   total            connection_overhead + duration (the six phases)
// Successful requests only, as every latency.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "metrics/metric_info.h"

namespace servebench::metrics::http_trace_rows {

// The row of `tag` (its value function is chosen by slot); in the HTTP Trace console group.
MetricInfo row(std::string_view tag, std::string_view header, RecordMetric slot, int order);

// When the connection was ready for the request bytes (steady ns).
int64_t send_start_ns(const record::RequestRecord& r);

}  // namespace servebench::metrics::http_trace_rows
