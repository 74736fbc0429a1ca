#include "app/telemetry_hooks.h"

#include "core/clock.h"

namespace servebench::app {

gpu_telemetry::TelemetryOptions telemetry_options(const config::BenchmarkConfig& cfg) {
  gpu_telemetry::TelemetryOptions o;
  o.gpu = !cfg.no_gpu_telemetry;
  o.gpu_console = cfg.gpu_telemetry_given;
  o.values = cfg.gpu_telemetry;
  o.rtt_probe = cfg.network_latency_automatic;
  o.rtt_fixed_ms = cfg.network_latency_mean_ms;
  o.rtt_interval_ns = cfg.network_latency_ping_interval_ns;
  o.urls = cfg.urls;
  if (auto c = cfg.effective_concurrency()) o.concurrency = static_cast<double>(*c);
  return o;
}

Result<std::unique_ptr<gpu_telemetry::TelemetrySession>> make_telemetry(
    const config::BenchmarkConfig& cfg) {
  auto o = telemetry_options(cfg);
  if (!o.gpu && !o.rtt_probe && !o.rtt_fixed_ms)
    return std::unique_ptr<gpu_telemetry::TelemetrySession>();
  return gpu_telemetry::TelemetrySession::create(std::move(o), core::SteadyClock::instance());
}

RunHooks with_telemetry(const RunHooks& hooks, gpu_telemetry::TelemetrySession* session) {
  if (session == nullptr) return hooks;
  RunHooks h = hooks;  // every hook not wrapped here (records, progress) passes through
  h.before_load = [hooks, session](const PhaseInfo& p) {
    if (hooks.before_load) hooks.before_load(p);
    session->before_load(p.artifact_dir, p.anchor);
  };
  h.load_started = [hooks, session](const PhaseInfo& p) {
    if (hooks.load_started) hooks.load_started(p);
    session->load_started(p.load_start_ns);
  };
  h.load_ended = [hooks, session](const PhaseInfo& p) {
    if (hooks.load_ended) hooks.load_ended(p);
    session->load_ended(p.load_end_ns);
  };
  h.after_grace = [hooks, session](const PhaseInfo& p) {
    if (hooks.after_grace) hooks.after_grace(p);
    session->after_grace();
  };
  return h;
}

exporter::ExtraSectionsFn telemetry_sections(const gpu_telemetry::TelemetrySession* session) {
  return [session](const metrics::Summary& s) { return session->sections(s); };
}

}  // namespace servebench::app
