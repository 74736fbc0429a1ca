#include "telemetry/server_reconcile.h"

#include <cmath>

namespace servebench::telemetry {
namespace {

struct Quantity {
  const char* name;
  std::vector<const char*> metrics;  // first one the server exposes wins
};

const std::vector<Quantity>& quantities() {
  static const std::vector<Quantity> kQuantities = {
      {"time_to_first_token",
       {"vllm:time_to_first_token_seconds", "sglang:time_to_first_token_seconds",
        "trtllm_time_to_first_token_seconds", "dynamo_frontend_time_to_first_token_seconds"}},
      {"request_latency",
       {"vllm:e2e_request_latency_seconds", "sglang:e2e_request_latency_seconds",
        "trtllm_e2e_request_latency_seconds", "dynamo_frontend_request_duration_seconds"}},
  };
  return kQuantities;
}

std::optional<double> finite_ms(double seconds) {
  if (!std::isfinite(seconds)) return std::nullopt;
  return seconds * 1000.0;
}

std::optional<double> diff(std::optional<double> client, std::optional<double> server) {
  if (!client || !server) return std::nullopt;
  return *client - *server;
}

}  // namespace

std::vector<ReconcileRow> reconcile(const ServerReport& report, const ClientLatency& client) {
  std::vector<ReconcileRow> rows;
  for (const Quantity& q : quantities()) {
    const bool ttft = std::string(q.name) == "time_to_first_token";
    const auto& avg = ttft ? client.ttft_avg_ms : client.e2e_avg_ms;
    if (!avg) continue;
    for (const char* metric : q.metrics) {
      auto h = merge_histograms(report, metric);
      if (!h) continue;
      ReconcileRow r;
      r.quantity = q.name;
      r.server_metric = metric;
      r.server_count = h->count;
      r.client_count = client.requests;
      r.server_avg_ms = h->avg * 1000.0;
      r.client_avg_ms = *avg;
      r.diff_avg_ms = r.client_avg_ms - r.server_avg_ms;
      if (h->has_estimate) {
        r.server_p50_ms = finite_ms(h->p_estimate[4]);
        r.server_p99_ms = finite_ms(h->p_estimate[8]);
      }
      r.client_p50_ms = ttft ? client.ttft_p50_ms : client.e2e_p50_ms;
      r.client_p99_ms = ttft ? client.ttft_p99_ms : client.e2e_p99_ms;
      r.diff_p50_ms = diff(r.client_p50_ms, r.server_p50_ms);
      r.diff_p99_ms = diff(r.client_p99_ms, r.server_p99_ms);
      rows.push_back(std::move(r));
      break;
    }
  }
  return rows;
}

const std::vector<std::string>& reconcile_caveats() {
  static const std::vector<std::string> kCaveats = {
      "difference = client - server: network both ways, the server's HTTP/API layer before its "
      "own clock starts, and the client's share",
      "server percentiles are estimated from histogram buckets (exact only to a bucket's width); "
      "the avg difference is exact",
      "the server counts every request it served in the window (other clients, warm-up "
      "completions): compare server_count with client_count",
      "each server starts its clock at its own point (vLLM: arrival in the engine)"};
  return kCaveats;
}

}  // namespace servebench::telemetry
