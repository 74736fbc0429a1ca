// The server-metrics collector: scrapes Prometheus endpoints on its own thread, parses each
// answer and keeps the series (server_series.h); optionally appends every snapshot to a JSONL
// file as it arrives. It never touches the load: its own HTTP connections (the control client),
// its own thread, and a failing endpoint costs one warning, never the run.
//
// Lifecycle: start() probes every endpoint once, synchronously (the first successful scrape is
// the counters' baseline, taken before any load): an endpoint that does not answer 200 with a
// Prometheus text / OpenMetrics body is tried once more at its /prometheus/metrics sibling (as
// TRT-LLM serves it; not when the first probe got no answer at all), then skipped with one
// warning. The thread then scrapes every live
// endpoint every `interval_ns` until stop(), which takes one last scrape and joins.
//
// Thread safety: start() and stop() from one thread; store() only after stop().
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "telemetry/server_series.h"

namespace servebench::telemetry {

// One HTTP answer of a scrape.
struct ScrapeAnswer {
  int http_status = 0;
  std::string content_type;
  std::string body;
};

// Fetches `url` (GET) within `timeout_ns`; a test seam for the control client.
using ScrapeFetch = std::function<Result<ScrapeAnswer>(const std::string& url, int64_t timeout_ns)>;

struct CollectorOptions {
  std::vector<std::string> urls;  // full /metrics URLs, deduplicated
  int64_t interval_ns = 333'000'000;
  // The first scrape of each endpoint; the load waits for it, so it is short: a server that
  // cannot answer /metrics within a second is skipped.
  int64_t probe_timeout_ns = 1'000'000'000;
  int64_t scrape_timeout_ns = 5'000'000'000;
  std::string jsonl_path;  // "" = no raw snapshot file
  core::WallAnchor anchor;  // steady -> wall for the JSONL timestamps
};

// Per-endpoint collection facts (the export's endpoint_info).
struct EndpointFacts {
  std::string url;  // the URL scraped (after the /prometheus/metrics fallback), without user
                    // info or query: the one shown in warnings and artifacts
  bool live = false;
  int64_t fetches = 0;
  int64_t errors = 0;
  int64_t first_ns = 0, last_ns = 0;
  int64_t latency_sum_ns = 0;
  std::string last_error;
  std::string fetch_url;  // as configured (basic-auth user info kept): never shown
  bool answered = false;  // the last fetch got an error status or a JSON/HTML answer
};

class ServerMetricsCollector {
 public:
  ServerMetricsCollector(CollectorOptions options, const core::Clock& clock, ScrapeFetch fetch);
  ~ServerMetricsCollector();
  ServerMetricsCollector(const ServerMetricsCollector&) = delete;
  ServerMetricsCollector& operator=(const ServerMetricsCollector&) = delete;

  // Probes and starts the thread; returns the warnings (one per skipped endpoint).
  std::vector<std::string> start();
  // Asks the thread for a scrape now (at a phase change), without waiting for it.
  void scrape_soon();
  // One last scrape of every live endpoint, then joins. Idempotent.
  void stop();
  // Joins the thread, then scrapes every live endpoint each `poll_ns` until two consecutive
  // scrapes show the same completion counters (every histogram _count and every counter outside
  // the process_/python_/go_ families) on every endpoint, or steady `deadline_ns` passed: the
  // server has counted the last requests. At least two scrapes.
  void stop_when_settled(int64_t deadline_ns, int64_t poll_ns);

  const SeriesStore& store() const { return store_; }
  const std::vector<EndpointFacts>& endpoints() const { return facts_; }
  // The JSONL file's write error, if any ("" = none).
  const std::string& write_error() const { return write_error_; }

 private:
  bool scrape(size_t endpoint, int64_t timeout_ns, std::string* why);
  void loop();
  void join_thread();
  void close_jsonl();
  void write_snapshot(size_t endpoint, int64_t sent_ns, int64_t done_ns,
                      const std::vector<prom::Family>& families);

  CollectorOptions options_;
  const core::Clock& clock_;
  ScrapeFetch fetch_;
  SeriesStore store_;
  std::vector<EndpointFacts> facts_;
  std::vector<int> store_index_;
  std::vector<double> signature_;  // per endpoint: the completion counters' sum, last scrape
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> jsonl_{nullptr, &std::fclose};
  std::string write_error_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool wake_ = false;
};

// "host:9400" -> "http://host:9400/metrics"; a URL with a path is kept as given.
std::string normalize_metrics_url(const std::string& text);

// `url` without user info (user:password@) and query: safe to show and to write.
std::string redact_url(const std::string& url);

// The /prometheus/metrics sibling of a /metrics URL ("" when `url` does not end in /metrics).
std::string prometheus_fallback_url(const std::string& url);

// The control client as a ScrapeFetch (one kept connection per endpoint; no credentials are
// sent: the user's API key and headers go to the benchmarked API only). TLS is verified unless
// `verify_tls` is false.
ScrapeFetch control_fetch(bool verify_tls);

}  // namespace servebench::telemetry
