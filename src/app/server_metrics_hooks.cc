#include "app/server_metrics_hooks.h"

#include <cstdio>

#include "core/log.h"

namespace servebench::app {

ServerMetricsHooks::ServerMetricsHooks(const config::BenchmarkConfig& cfg) {
  if (!cfg.server_metrics) return;
  telemetry::ServerMetricsConfig sm;
  sm.base_urls = cfg.urls;
  sm.extra_urls = cfg.server_metrics_urls;
  sm.interval_ns = cfg.server_metrics_interval_ns;
  sm.verify_tls = !cfg.insecure_tls;
  sm.slice_ns = cfg.slice_duration_ns;
  sm.file_prefix = cfg.profile_export_prefix;
  auto has = [&cfg](const char* f) {
    for (const auto& x : cfg.server_metrics_formats) {
      if (x == f) return true;
    }
    return false;
  };
  sm.json = has("json");
  sm.csv = has("csv");
  sm.jsonl = has("jsonl");
  if (has("parquet")) warnings_.push_back("server metrics: parquet is not written (json, csv and jsonl are)");
  run_ = std::make_unique<telemetry::ServerMetricsRun>(std::move(sm));
}

ServerMetricsHooks::~ServerMetricsHooks() = default;

RunHooks ServerMetricsHooks::wrap(const RunHooks& inner) {
  if (!run_) return inner;
  RunHooks h = inner;  // every hook not wrapped here (records, progress) passes through
  h.before_load = [this, inner](const PhaseInfo& info) {
    if (inner.before_load) inner.before_load(info);
    for (auto& w : run_->before_load(info.artifact_dir, info.anchor)) {
      SB_LOG_WARN("{}", w);
      warnings_.push_back(std::move(w));
    }
  };
  h.load_started = [this, inner](const PhaseInfo& info) {
    if (inner.load_started) inner.load_started(info);
    run_->load_started(info.load_start_ns);
  };
  h.load_ended = [this, inner](const PhaseInfo& info) {
    if (inner.load_ended) inner.load_ended(info);
    run_->load_ended(info.load_end_ns);
  };
  h.after_grace = [this, inner](const PhaseInfo& info) {
    if (inner.after_grace) inner.after_grace(info);
    run_->after_grace();
    finished_phases_ = true;
  };
  return h;
}

std::vector<std::string> ServerMetricsHooks::take_warnings() { return std::move(warnings_); }

void ServerMetricsHooks::finish(const exporter::RunSummaries& summaries,
                                const exporter::RunContext& ctx, bool print_console,
                                std::vector<std::string>* warnings) {
  if (!run_ || !finished_phases_) return;
  auto out = run_->finish(client_latency(summaries.profiling), ctx.benchmark_id, ctx.input_config_json);
  for (auto& w : out.warnings) {
    SB_LOG_WARN("{}", w);
    warnings->push_back(std::move(w));
  }
  if (print_console && !out.console.empty()) {
    std::fwrite(out.console.data(), 1, out.console.size(), stdout);
    for (const auto& [label, path] : out.files) std::printf("%s: %s\n", label.c_str(), path.c_str());
    std::fflush(stdout);
  }
}

telemetry::ClientLatency client_latency(const metrics::Summary& summary) {
  telemetry::ClientLatency c;
  c.requests = summary.request_count;
  auto fill = [&summary](const char* tag, std::optional<double>* avg, std::optional<double>* p50,
                         std::optional<double>* p99) {
    const metrics::MetricResult* m = summary.find(tag);
    if (!m || !m->distribution || m->stats.count == 0) return;
    *avg = m->stats.avg / 1e6;
    *p50 = m->stats.p[4] / 1e6;
    *p99 = m->stats.p[8] / 1e6;
  };
  fill("time_to_first_token", &c.ttft_avg_ms, &c.ttft_p50_ms, &c.ttft_p99_ms);
  fill("request_latency", &c.e2e_avg_ms, &c.e2e_p50_ms, &c.e2e_p99_ms);
  return c;
}

}  // namespace servebench::app
