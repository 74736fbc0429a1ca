#include "telemetry/server_metrics_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "telemetry/server_console.h"
#include "telemetry/server_export.h"
#include "telemetry/server_stats.h"

namespace servebench::telemetry {
namespace {

constexpr int64_t kSettlePollNs = 100'000'000;

Status write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return make_error(ErrorCode::kIo, "cannot write " + path);
  return {};
}

}  // namespace

std::string metrics_url_for_base(const std::string& base) {
  std::string url = base;
  if (size_t cut = url.find_first_of("?#"); cut != std::string::npos) url.resize(cut);
  const size_t scheme = url.find("://");
  const size_t host = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t path = url.find('/', host);
  const size_t at = url.rfind('@', path == std::string::npos ? url.size() : path);
  if (at != std::string::npos && at >= host) url.erase(host, at + 1 - host);
  while (!url.empty() && url.back() == '/') url.pop_back();
  return normalize_metrics_url(url + "/metrics");
}

std::vector<std::string> scrape_urls(const ServerMetricsConfig& config) {
  std::vector<std::string> urls;
  auto add = [&urls](std::string u) {
    if (std::find(urls.begin(), urls.end(), u) == urls.end()) urls.push_back(std::move(u));
  };
  for (const auto& b : config.base_urls) add(metrics_url_for_base(b));
  for (const auto& e : config.extra_urls) add(normalize_metrics_url(e));
  return urls;
}

ServerMetricsRun::ServerMetricsRun(ServerMetricsConfig config, const core::Clock& clock,
                                   ScrapeFetch fetch)
    : config_(std::move(config)), clock_(clock), fetch_(std::move(fetch)), urls_(scrape_urls(config_)) {
  if (!fetch_) fetch_ = control_fetch(config_.verify_tls);
}

ServerMetricsRun::~ServerMetricsRun() = default;

std::string ServerMetricsRun::file_path(const char* extension) const {
  std::string stem = config_.file_prefix.empty() ? "server_metrics_export"
                                                 : config_.file_prefix + "_server_metrics";
  return artifact_dir_ + "/" + stem + extension;
}

std::vector<std::string> ServerMetricsRun::before_load(const std::string& artifact_dir,
                                                       const core::WallAnchor& anchor) {
  artifact_dir_ = artifact_dir;
  anchor_ = anchor;
  CollectorOptions o;
  o.urls = urls_;
  o.interval_ns = config_.interval_ns;
  o.anchor = anchor;
  if (config_.jsonl) o.jsonl_path = file_path(".jsonl");
  collector_ = std::make_unique<ServerMetricsCollector>(std::move(o), clock_, fetch_);
  return collector_->start();
}

void ServerMetricsRun::load_started(int64_t t0_ns) {
  start_ns_ = t0_ns;
  if (collector_) collector_->scrape_soon();  // a sample at the window's start
}

void ServerMetricsRun::load_ended(int64_t end_ns) {
  end_ns_ = end_ns;
  if (collector_) collector_->scrape_soon();  // ... and at its end
}

void ServerMetricsRun::after_grace() {
  if (!collector_) return;
  const int64_t from = end_ns_ != 0 ? std::min(end_ns_, clock_.now_ns()) : clock_.now_ns();
  collector_->stop_when_settled(from + config_.flush_ns, kSettlePollNs);
}

ServerMetricsOutcome ServerMetricsRun::finish(const ClientLatency& client,
                                              const std::string& benchmark_id,
                                              const std::string& input_config_json) {
  ServerMetricsOutcome out;
  if (!collector_) return out;
  const auto& facts = collector_->endpoints();
  const bool any_live = std::any_of(facts.begin(), facts.end(), [](const auto& f) { return f.live; });
  if (!collector_->write_error().empty()) out.warnings.push_back("server metrics: " + collector_->write_error());
  if (config_.jsonl && any_live) out.files.emplace_back("Server metrics JSONL", file_path(".jsonl"));
  if (config_.jsonl && !any_live) std::remove(file_path(".jsonl").c_str());  // nothing was scraped
  if (!any_live) return out;
  for (const auto& f : facts) {
    if (f.live && f.errors > 0)
      out.warnings.push_back(fmt::format("server metrics: {} failed {} of {} scrapes (last: {})", f.url,
                                         f.errors, f.fetches, f.last_error));
  }
  Window w;
  w.start_ns = start_ns_;
  w.end_ns = end_ns_ > start_ns_ ? end_ns_ : clock_.now_ns();
  const ServerReport report = build_report(collector_->store(), w, config_.slice_ns);
  const std::vector<ReconcileRow> rows = reconcile(report, client);
  std::vector<std::string> shown;
  for (const auto& u : urls_) shown.push_back(redact_url(u));
  ExportContext ctx{benchmark_id, input_config_json, anchor_, shown};
  if (config_.json) {
    const std::string path = file_path(".json");
    if (auto st = write_text(path, render_server_json(report, facts, rows, ctx)); st) {
      out.files.emplace_back("Server metrics JSON", path);
    } else {
      out.warnings.push_back("server metrics: " + st.error().message);
    }
  }
  if (config_.csv) {
    const std::string path = file_path(".csv");
    if (auto st = write_text(path, render_server_csv(report, ctx)); st) {
      out.files.emplace_back("Server metrics CSV", path);
    } else {
      out.warnings.push_back("server metrics: " + st.error().message);
    }
  }
  if (!report.unsupported.empty())
    out.warnings.push_back(fmt::format("server metrics: summary-type families are not supported ({} skipped, "
                                       "e.g. {})",
                                       report.unsupported.size(), report.unsupported.front()));
  out.console = render_server_console(report, rows);
  return out;
}

}  // namespace servebench::telemetry
