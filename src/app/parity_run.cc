#include "app/parity_run.h"

#include "app/load_setup.h"
#include "app/readiness.h"
#include "core/log.h"

namespace servebench::app {

Status wait_until_ready(const config::BenchmarkConfig& cfg, const endpoints::Endpoint& endpoint,
                        const std::vector<std::string>& endpoint_urls) {
  ReadinessOptions o;
  o.base_urls = cfg.urls;
  o.endpoint_urls = endpoint_urls;
  o.model = cfg.model();
  o.mode = cfg.parity.wait_for_model_mode;
  o.timeout_ns = cfg.parity.wait_for_model_timeout_ns;
  o.interval_ns = cfg.parity.wait_for_model_interval_ns;
  endpoints::TurnPayload turn;
  turn.messages.push_back({"user", "Hello"});
  turn.max_output_tokens = 1;
  o.inference_body = endpoint.render_body(turn);
  o.headers = user_headers(cfg);
  o.verify_tls = !cfg.insecure_tls;
  SB_LOG_INFO("waiting up to {:g} s for the model to be ready", static_cast<double>(o.timeout_ns) / 1e9);
  auto r = wait_for_model(o, core::SteadyClock::instance());
  if (!r) return tl::unexpected(r.error());
  SB_LOG_INFO("model ready after {:.1f} s ({} probe(s))", static_cast<double>(r->waited_ns) / 1e9,
              r->attempts);
  return {};
}

ServerProfilerOptions server_profiler_options(const config::BenchmarkConfig& cfg) {
  ServerProfilerOptions o;
  o.urls = cfg.urls;
  o.start_path = cfg.parity.server_profiler_start_path;
  o.stop_path = cfg.parity.server_profiler_stop_path;
  o.timeout_ns = cfg.parity.server_profiler_timeout_ns;
  o.headers = user_headers(cfg);
  o.verify_tls = !cfg.insecure_tls;
  return o;
}

std::optional<load::FailureThreshold> make_failure_threshold(const config::BenchmarkConfig& cfg,
                                                             const load::LoadSpec& spec) {
  if (!cfg.parity.failed_request_threshold) return std::nullopt;
  return load::FailureThreshold(*cfg.parity.failed_request_threshold, spec.concurrency.value_or(0));
}

void note_internal_flags(const config::BenchmarkConfig& cfg) {
  for (const auto& f : cfg.parity.internal_flags_given)
    SB_LOG_INFO("{} is accepted for AIPerf compatibility and not needed by servebench", f);
}

}  // namespace servebench::app
