// Server metrics for one benchmark run: which endpoints to scrape, the collector's lifetime
// across the run's phases, and the artifacts (server_metrics_export.json/.csv/.jsonl) and console
// table at the end. The run library calls the phase methods from its hooks (app/run.h); every
// method runs on the run library's threads, the scraping on the collector's own thread.
//
// Window: counters and histograms are measured from the last scrape at or before the profiling
// start (before_load's synchronous scrape when there is no warm-up) to the final scrape, taken
// once the server's completion counters stopped moving between two scrapes 100 ms apart, at most
// `flush_ns` (2 s, AIPerf's flush period) after the load ended, so that the last requests are
// counted without making every run 2 s longer; gauges use the samples inside the profiling phase.
//
// Thread safety: one thread at a time (the run library's hook order).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "telemetry/server_collector.h"
#include "telemetry/server_reconcile.h"

namespace servebench::telemetry {

struct ServerMetricsConfig {
  std::vector<std::string> base_urls;   // --url: <base>/metrics is scraped
  std::vector<std::string> extra_urls;  // --server-metrics
  int64_t interval_ns = 333'000'000;
  int64_t flush_ns = 2'000'000'000;
  bool json = true, csv = true, jsonl = false;  // --server-metrics-formats
  bool verify_tls = true;
  int64_t slice_ns = 0;      // --slice-duration
  std::string file_prefix;   // --profile-export-prefix ("" = AIPerf's default names)
};

struct ServerMetricsOutcome {
  std::vector<std::string> warnings;
  std::string console;  // the compact table ("" when nothing was collected)
  std::vector<std::pair<std::string, std::string>> files;  // (label, path)
};

class ServerMetricsRun {
 public:
  // `fetch` empty: the control client.
  explicit ServerMetricsRun(ServerMetricsConfig config,
                            const core::Clock& clock = core::SteadyClock::instance(),
                            ScrapeFetch fetch = {});
  ~ServerMetricsRun();

  // Probes every endpoint (first scrape) and starts the collector; returns one warning per
  // skipped endpoint.
  std::vector<std::string> before_load(const std::string& artifact_dir, const core::WallAnchor& anchor);
  void load_started(int64_t t0_ns);
  void load_ended(int64_t end_ns);
  // Final scrapes until the counters settle (at most flush_ns after the load's end); stops the
  // collector.
  void after_grace();
  // Statistics, reconciliation, files. REQUIRES: after_grace() ran.
  ServerMetricsOutcome finish(const ClientLatency& client, const std::string& benchmark_id,
                              const std::string& input_config_json);

  const std::vector<std::string>& urls() const { return urls_; }

 private:
  std::string file_path(const char* extension) const;

  ServerMetricsConfig config_;
  const core::Clock& clock_;
  ScrapeFetch fetch_;
  std::vector<std::string> urls_;
  std::unique_ptr<ServerMetricsCollector> collector_;
  std::string artifact_dir_;
  core::WallAnchor anchor_;
  int64_t start_ns_ = 0, end_ns_ = 0;
};

// "<scheme>://<host>[:port][/path]/metrics" for a --url base: user info, query and fragment are
// dropped (no credential reaches an artifact).
std::string metrics_url_for_base(const std::string& base);

// The deduplicated scrape list: every base's /metrics, then every extra URL (normalized).
std::vector<std::string> scrape_urls(const ServerMetricsConfig& config);

}  // namespace servebench::telemetry
