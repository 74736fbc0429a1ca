// Reconciliation: the server's own TTFT and end-to-end latency histograms (vLLM, SGLang,
// TRT-LLM, Dynamo names) set against the client's measurements of the same requests over the
// same window. difference = client - server: the time spent outside what the server's histogram
// covers (network both ways, the server's HTTP/API layer before its clock starts, and the
// client's own share). Caveats, also written next to the numbers:
//  - the server's percentiles are estimates from bucket bounds (only its avg is exact), so the
//    avg difference is the number to read; percentile differences are within a bucket's width;
//  - the server counts every request it served in the window: other clients, or warm-up
//    requests that completed inside it, make the counts differ (server_count vs client_count);
//  - where each side starts its clock differs per server (e.g. vLLM measures from the request's
//    arrival in the engine).
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "telemetry/server_stats.h"

namespace servebench::telemetry {

// The client's side, in milliseconds, over the profiling window.
struct ClientLatency {
  int64_t requests = 0;
  std::optional<double> ttft_avg_ms, ttft_p50_ms, ttft_p99_ms;
  std::optional<double> e2e_avg_ms, e2e_p50_ms, e2e_p99_ms;
};

struct ReconcileRow {
  std::string quantity;       // "time_to_first_token" or "request_latency"
  std::string server_metric;  // e.g. "vllm:time_to_first_token_seconds"
  double server_count = 0;
  int64_t client_count = 0;
  double server_avg_ms = 0, client_avg_ms = 0, diff_avg_ms = 0;
  std::optional<double> server_p50_ms, client_p50_ms, diff_p50_ms;
  std::optional<double> server_p99_ms, client_p99_ms, diff_p99_ms;
};

// Rows for the quantities both sides measured (none when the server exposes no such histogram).
std::vector<ReconcileRow> reconcile(const ServerReport& report, const ClientLatency& client);

// The caveat text written next to the rows (JSON "caveats", console footnote).
const std::vector<std::string>& reconcile_caveats();

}  // namespace servebench::telemetry
