// Server-metrics collection attached to a run's phase hooks (app/run.h): wraps the caller's
// hooks so the collector (telemetry/server_metrics_run.h) starts before the load, learns the
// profiling window, and stops 2 s after the load; then writes its files and console panel next
// to the run's. Off with --no-server-metrics. Never touches the load workers.
//
// Thread safety: used by run_benchmark's threads in hook order only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/run.h"
#include "config/benchmark_config.h"
#include "export/artifacts.h"
#include "export/record_stream.h"
#include "telemetry/server_metrics_run.h"

namespace servebench::app {

class ServerMetricsHooks {
 public:
  explicit ServerMetricsHooks(const config::BenchmarkConfig& cfg);
  ~ServerMetricsHooks();

  // `inner` called first at each phase, then the collector.
  RunHooks wrap(const RunHooks& inner);
  // The probe's warnings (skipped endpoints), once.
  std::vector<std::string> take_warnings();
  // Files and console panel; warnings appended. No-op when off or nothing was collected.
  void finish(const exporter::RunSummaries& summaries, const exporter::RunContext& ctx,
              bool print_console, std::vector<std::string>* warnings);

 private:
  std::unique_ptr<telemetry::ServerMetricsRun> run_;
  std::vector<std::string> warnings_;
  bool finished_phases_ = false;
};

// The client's TTFT and request latency (ms) of a run's profiling summary.
telemetry::ClientLatency client_latency(const metrics::Summary& summary);

}  // namespace servebench::app
