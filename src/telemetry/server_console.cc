#include "telemetry/server_console.h"

#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

namespace servebench::telemetry {
namespace {

using prom::MetricType;

struct Server {
  const char* id;
  const char* title;
  const char* prefix;
  std::vector<const char*> metrics;  // export keys, in display order; empty: every prefixed one
};

const std::vector<Server>& servers() {
  static const std::vector<Server> kServers = {
      {"vllm", "vLLM", "vllm:",
       {"vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc",
        "vllm:gpu_cache_usage_perc", "vllm:time_to_first_token_seconds",
        "vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds",
        "vllm:e2e_request_latency_seconds", "vllm:prompt_tokens", "vllm:generation_tokens",
        "vllm:request_success", "vllm:num_preemptions"}},
      {"sglang", "SGLang", "sglang:",
       {"sglang:num_running_reqs", "sglang:num_queue_reqs", "sglang:token_usage",
        "sglang:time_to_first_token_seconds", "sglang:inter_token_latency_seconds",
        "sglang:e2e_request_latency_seconds", "sglang:prompt_tokens", "sglang:generation_tokens"}},
      {"dynamo", "Dynamo", "dynamo_",
       {"dynamo_frontend_inflight_requests", "dynamo_frontend_queued_requests",
        "dynamo_component_kvstats_gpu_cache_usage_percent",
        "dynamo_frontend_time_to_first_token_seconds", "dynamo_frontend_inter_token_latency_seconds",
        "dynamo_frontend_request_duration_seconds", "dynamo_frontend_requests",
        "dynamo_frontend_output_tokens"}},
      {"trtllm", "TensorRT-LLM", "trtllm_", {}},
      {"llamacpp", "llama.cpp", "llamacpp:",
       {"llamacpp:requests_processing", "llamacpp:requests_deferred", "llamacpp:kv_cache_usage_ratio",
        "llamacpp:kv_cache_tokens", "llamacpp:prompt_tokens_seconds", "llamacpp:predicted_tokens_seconds",
        "llamacpp:prompt_tokens", "llamacpp:tokens_predicted", "llamacpp:prompt_seconds",
        "llamacpp:tokens_predicted_seconds", "llamacpp:n_decode"}},
  };
  return kServers;
}

std::string num(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (v != 0 && std::fabs(v) < 0.01) return fmt::format("{:.3g}", v);
  if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

// One row: every series of `metric` combined (gauges: summed avg and max; counters: summed).
std::string row_text(const ServerReport& report, const std::string& metric, MetricType* type) {
  double avg = 0, max = 0, total = 0, rate = 0;
  int n = 0;
  for (const auto& s : report.series) {
    if (s.metric != metric) continue;
    *type = s.type;
    ++n;
    if (s.gauge) {
      avg += s.gauge->avg;
      max += s.gauge->max;
    } else if (s.counter) {
      total += s.counter->total;
      rate += s.counter->rate;
    }
  }
  if (n == 0) return "";
  if (*type == MetricType::kHistogram) {
    auto h = merge_histograms(report, metric);
    if (!h) return "no observations";
    std::string text = fmt::format("n {}  avg {}", num(h->count), num(h->avg));
    if (h->has_estimate)
      text += fmt::format("  p50~{}  p99~{}", num(h->p_estimate[4]), num(h->p_estimate[8]));
    return text;
  }
  if (*type == MetricType::kCounter) return fmt::format("total {}  rate {}/s", num(total), num(rate));
  return fmt::format("avg {}  max {}", num(avg), num(max));
}

}  // namespace

std::string detect_server(const ServerReport& report) {
  std::map<std::string, int> hits;
  for (const auto& s : report.series) {
    for (const auto& srv : servers()) {
      if (s.metric.rfind(srv.prefix, 0) == 0) ++hits[srv.id];
    }
  }
  std::string best;
  int best_hits = 0;
  for (const auto& [id, n] : hits) {
    if (n > best_hits) {
      best = id;
      best_hits = n;
    }
  }
  return best;
}

std::string render_server_console(const ServerReport& report, const std::vector<ReconcileRow>& rows) {
  const std::string id = detect_server(report);
  const Server* srv = nullptr;
  for (const auto& s : servers()) {
    if (s.id == id) srv = &s;
  }
  std::string out;
  std::vector<std::string> metrics;
  if (srv && !srv->metrics.empty()) {
    metrics.assign(srv->metrics.begin(), srv->metrics.end());
  } else if (srv) {
    for (const auto& s : report.series) {
      if (s.metric.rfind(srv->prefix, 0) == 0 && (metrics.empty() || metrics.back() != s.metric) &&
          metrics.size() < 12)
        metrics.push_back(s.metric);
    }
  }
  std::set<int> endpoints;
  for (const auto& s : report.series) endpoints.insert(s.endpoint);
  out += fmt::format("Server metrics ({}; {} series from {} endpoint(s); all in server_metrics_export.json)\n",
                     srv ? srv->title : "server not recognized", report.series.size(), endpoints.size());
  for (const auto& m : metrics) {
    MetricType type = MetricType::kGauge;
    std::string text = row_text(report, m, &type);
    if (text.empty()) continue;
    const char* tname = type == MetricType::kUnknown ? "unknown" : prom::metric_type_name(type);
    out += fmt::format("  {:<46} {:<10} {}\n", m, tname, text);
  }
  if (!rows.empty()) {
    out += "Server vs client latency (difference = client - server: network + HTTP layer + client)\n";
    for (const auto& r : rows) {
      out += fmt::format("  {:<20} server avg {:.2f} ms  client avg {:.2f} ms  difference {:+.2f} ms  "
                         "(requests: server {} / client {})\n",
                         r.quantity, r.server_avg_ms, r.client_avg_ms, r.diff_avg_ms,
                         num(r.server_count), r.client_count);
    }
    out += "  server percentiles are bucket estimates; caveats in server_metrics_export.json\n";
  }
  return out;
}

}  // namespace servebench::telemetry
