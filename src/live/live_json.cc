#include "live/live_json.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace servebench::live {
namespace {

using nlohmann::json;

double elapsed_s(const LiveSnapshot& s) {
  return s.profiling_start_ns > 0 && s.published_ns > s.profiling_start_ns
             ? static_cast<double>(s.published_ns - s.profiling_start_ns) / 1e9
             : 0.0;
}

json progress_object(const LiveSnapshot& s) {
  json j;
  j["phase"] = live_phase_name(s.phase);
  const double p = s.progress();
  j["progress"] = p >= 0 ? json(p) : json(nullptr);
  const double eta = s.eta_s();
  j["eta_s"] = eta >= 0 ? json(eta) : json(nullptr);
  j["issued"] = s.issued;
  j["completed"] = s.completed;
  j["ok"] = s.ok;
  j["failed"] = s.failed;
  j["in_flight"] = s.in_flight();
  j["warmup_completed"] = s.warmup_completed;
  j["expected_requests"] = s.expected_requests >= 0 ? json(s.expected_requests) : json(nullptr);
  j["elapsed_s"] = elapsed_s(s);
  j["duration_s"] =
      s.duration_ns > 0 ? json(static_cast<double>(s.duration_ns) / 1e9) : json(nullptr);
  return j;
}

json quantiles_ms(const LiveQuantiles& q) {
  if (q.count == 0) return json{{"count", 0}, {"p50", nullptr}, {"p99", nullptr}};
  return json{{"count", q.count}, {"p50", q.p50_ns / 1e6}, {"p99", q.p99_ns / 1e6}};
}

json metric_object(const LiveMetric& m) {
  return json{
      {"unit", "ms"}, {"window", quantiles_ms(m.window)}, {"overall", quantiles_ms(m.overall)}};
}

void gauge(std::string* out, const char* name, const char* help, double v) {
  *out += fmt::format("# HELP {0} {1}\n# TYPE {0} gauge\n{0} {2}\n", name, help, v);
}

void counter(std::string* out, const char* name, const char* help, int64_t v) {
  *out += fmt::format("# HELP {0} {1}\n# TYPE {0} counter\n{0} {2}\n", name, help, v);
}

void quantile_family(std::string* out, const char* name, const char* help, const LiveMetric& m) {
  *out += fmt::format("# HELP {0} {1}\n# TYPE {0} gauge\n", name, help);
  for (const auto& [scope, q] : {std::pair{"window", m.window}, std::pair{"overall", m.overall}}) {
    if (q.count == 0) continue;
    *out += fmt::format("{}{{scope=\"{}\",quantile=\"0.5\"}} {}\n", name, scope, q.p50_ns / 1e9);
    *out += fmt::format("{}{{scope=\"{}\",quantile=\"0.99\"}} {}\n", name, scope, q.p99_ns / 1e9);
  }
}

}  // namespace

std::string progress_json(const LiveSnapshot& s) { return progress_object(s).dump(); }

std::string metrics_json(const LiveSnapshot& s) {
  json j = progress_object(s);
  j["request_throughput"] = {{"unit", "requests/sec"},
                             {"window", s.window_request_rate},
                             {"overall", s.overall_request_rate}};
  j["output_token_throughput"] = {
      {"unit", "tokens/sec"}, {"window", s.window_token_rate}, {"overall", s.overall_token_rate}};
  j["output_tokens"] = s.output_tokens;
  j["input_tokens"] = s.input_tokens;
  j["time_to_first_token"] = metric_object(s.ttft);
  j["inter_token_latency"] = metric_object(s.itl);
  j["request_latency"] = metric_object(s.latency);
  j["schedule_lag"] = metric_object(s.schedule_lag);
  json errors = json::object();
  for (size_t k = 1; k < kErrorKinds; ++k)
    if (s.errors[k] > 0)
      errors[record::error_kind_name(static_cast<record::ErrorKind>(k))] = s.errors[k];
  j["errors_by_kind"] = errors;
  j["client"] = {{"cpu_percent", s.cpu_percent}, {"cpu_per_request_us", s.cpu_per_request_us}};
  return j.dump();
}

std::string prometheus_text(const LiveSnapshot& s) {
  std::string out;
  counter(&out, "servebench_requests_issued_total", "Requests issued (all phases)", s.issued);
  counter(&out, "servebench_requests_completed_total", "Profiling requests completed", s.completed);
  counter(&out, "servebench_requests_failed_total", "Profiling requests failed", s.failed);
  counter(&out, "servebench_output_tokens_total", "Output tokens of successful requests",
          s.output_tokens);
  out +=
      "# HELP servebench_errors_total Failed requests by error kind\n"
      "# TYPE servebench_errors_total counter\n";
  for (size_t k = 1; k < kErrorKinds; ++k)
    out += fmt::format("servebench_errors_total{{kind=\"{}\"}} {}\n",
                       record::error_kind_name(static_cast<record::ErrorKind>(k)), s.errors[k]);
  gauge(&out, "servebench_requests_in_flight", "Requests issued and not completed",
        static_cast<double>(s.in_flight()));
  gauge(&out, "servebench_request_rate", "Completed requests per second over the window",
        s.window_request_rate);
  gauge(&out, "servebench_output_token_rate", "Output tokens per second over the window",
        s.window_token_rate);
  const double p = s.progress();
  gauge(&out, "servebench_progress_ratio", "Profiling phase progress, 0 to 1", p < 0 ? 0 : p);
  gauge(&out, "servebench_phase", "0 setup, 1 warmup, 2 profiling, 3 draining, 4 done",
        static_cast<double>(static_cast<int32_t>(s.phase)));
  gauge(&out, "servebench_client_cpu_percent", "servebench process CPU over the last interval",
        s.cpu_percent);
  quantile_family(&out, "servebench_ttft_seconds", "Time to first token", s.ttft);
  quantile_family(&out, "servebench_itl_seconds", "Inter-token latency", s.itl);
  quantile_family(&out, "servebench_request_latency_seconds", "Request latency", s.latency);
  quantile_family(&out, "servebench_schedule_lag_seconds", "Send time minus planned send time",
                  s.schedule_lag);
  return out;
}

}  // namespace servebench::live
