#include "gpu_telemetry/telemetry_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/log.h"
#include "metrics/summary.h"

namespace servebench::gpu_telemetry {
namespace {

using json = nlohmann::ordered_json;

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string normalize_dcgm_url(std::string url) {
  if (url.find("://") == std::string::npos) url = "http://" + url;
  const size_t host = url.find("://") + 3;
  if (url.find('/', host) == std::string::npos) url += "/metrics";
  return url;
}

std::optional<double> lookup(const metrics::Summary& s, const char* tag) {
  double v = 0;
  if (!s.lookup(tag, "avg", &v)) return std::nullopt;
  return v;
}

// The RTT-adjusted metrics: every statistic of the start-anchored latencies minus the mean RTT.
constexpr const char* kAdjustedTags[] = {"request_latency", "time_to_first_token",
                                         "time_to_first_output_token"};
constexpr const char* kAdjustedStats[] = {"avg", "min", "max", "p1",  "p5",  "p10", "p25",
                                          "p50", "p75", "p90", "p95", "p99", "std", "count"};

}  // namespace

Result<GpuSelection> select_gpu_sources(const TelemetryOptions& o) {
  GpuSelection sel;
  if (!o.gpu) return sel;
  std::vector<std::string> urls;
  for (const auto& v : o.values) {
    if (v == "pynvml") {
      sel.nvml = true;
    } else if (v == "amdsmi") {
      sel.amdsmi = true;
    } else if (v == "dashboard") {
      // The live dashboard is not built; the values it would show are in the exports.
    } else if (ends_with(v, ".csv")) {
      auto fields = load_custom_metrics_csv(v);
      if (!fields) return tl::unexpected(fields.error());
      for (auto& f : *fields) sel.custom_fields.push_back(std::move(f));
    } else {
      urls.push_back(normalize_dcgm_url(v));
    }
  }
  if (!sel.nvml && !sel.amdsmi) {
    for (const auto& u : o.default_dcgm_urls) sel.dcgm_urls.push_back(u);
    for (const auto& u : urls)
      if (std::find(sel.dcgm_urls.begin(), sel.dcgm_urls.end(), u) == sel.dcgm_urls.end())
        sel.dcgm_urls.push_back(u);
  }
  return sel;
}

Result<std::unique_ptr<TelemetrySession>> TelemetrySession::create(TelemetryOptions options,
                                                                   const core::Clock& clock) {
  auto sel = select_gpu_sources(options);
  if (!sel) return tl::unexpected(sel.error());
  return std::unique_ptr<TelemetrySession>(
      new TelemetrySession(std::move(options), std::move(*sel), clock));
}

TelemetrySession::TelemetrySession(TelemetryOptions options, GpuSelection selection,
                                   const core::Clock& clock)
    : options_(std::move(options)), selection_(std::move(selection)), clock_(clock) {}

TelemetrySession::~TelemetrySession() {
  if (sampler_) sampler_->stop();
  if (prober_) prober_->stop();
}

void TelemetrySession::before_load(const std::string& artifact_dir, core::WallAnchor anchor) {
  anchor_ = anchor;
  std::vector<std::unique_ptr<GpuCollector>> collectors;
  std::vector<DcgmField> fields = default_dcgm_fields();
  for (const auto& f : selection_.custom_fields) fields.push_back(f);
  const auto& defaults = options_.default_dcgm_urls;
  for (const auto& u : selection_.dcgm_urls) {
    const bool is_default = std::find(defaults.begin(), defaults.end(), u) != defaults.end();
    collectors.push_back(make_dcgm_collector(
        u, fields, is_default ? kDefaultDcgmReachabilityTimeoutNs : kDcgmReachabilityTimeoutNs));
  }
  if (selection_.nvml) collectors.push_back(make_nvml_collector(options_.nvml_library));
  if (selection_.amdsmi) collectors.push_back(make_amdsmi_collector(options_.amdsmi_library));
  if (!collectors.empty()) {
    sampler_ = std::make_unique<GpuSampler>(std::move(collectors), options_.gpu_interval_ns,
                                            clock_, anchor);
    // Without --gpu-telemetry the default endpoints are tried quietly (most runs have none).
    if (!options_.gpu_console) sampler_->set_quiet_sources(options_.default_dcgm_urls);
    sampler_->start((std::filesystem::path(artifact_dir) / kGpuTelemetryJsonl).string());
  }
  if (options_.rtt_probe && !options_.rtt_fixed_ms) {
    prober_ = std::make_unique<RttProber>(options_.urls, options_.rtt_interval_ns, clock_, anchor);
    prober_->start();
  }
}

void TelemetrySession::load_started(int64_t at_ns) { load_start_ns_ = at_ns; }

void TelemetrySession::load_ended(int64_t at_ns) {
  load_end_ns_ = at_ns;
  if (prober_) prober_->stop();
}

void TelemetrySession::after_grace() {
  if (sampler_) {
    sampler_->stop();
    if (!sampler_->write_error().empty()) SB_LOG_WARN("GPU telemetry: {}", sampler_->write_error());
  }
  if (prober_) prober_->stop();
}

ReportWindow TelemetrySession::window() const {
  ReportWindow w;
  w.start_ns = load_start_ns_;
  w.end_ns = load_end_ns_ > 0 ? load_end_ns_ : clock_.now_ns();
  w.start_wall_ns = anchor_.to_wall_ns(w.start_ns);
  w.end_wall_ns = anchor_.to_wall_ns(w.end_ns);
  return w;
}

exporter::ExtraSections TelemetrySession::sections(const metrics::Summary& profiling) const {
  exporter::ExtraSections out;
  add_gpu_sections(profiling, &out);
  add_rtt_sections(profiling, &out);
  return out;
}

void TelemetrySession::add_gpu_sections(const metrics::Summary& s,
                                        exporter::ExtraSections* out) const {
  if (!sampler_) return;
  if (sampler_->series().empty()) {
    if (options_.gpu_console) {
      out->console += fmt::format("\nservebench | GPU Telemetry: 0/{} sources reachable\n",
                                  sampler_->configured().size());
      for (const auto& n : sampler_->notes()) out->console += "  " + n + "\n";
    }
    return;
  }
  ReportInput in;
  in.series = &sampler_->series();
  in.metrics = builtin_gpu_metrics();
  for (const auto& f : selection_.custom_fields) in.metrics.push_back(f.metric);
  in.configured = sampler_->configured();
  in.reachable = sampler_->reachable();
  in.window = window();
  out->json.emplace_back("telemetry_data", render_telemetry_json(in));
  RunTotals t;
  t.output_tokens = lookup(s, "total_osl");
  t.input_tokens = lookup(s, "total_isl");
  t.requests = lookup(s, "request_count");
  t.output_token_throughput = lookup(s, "output_token_throughput");
  t.request_throughput = lookup(s, "request_throughput");
  t.goodput = lookup(s, "goodput");
  t.concurrency = options_.concurrency;
  t.request_latency_ms = lookup(s, "request_latency");
  const auto derived = energy_metrics(*in.series, in.window, t);
  for (const auto& d : derived) {
    json j;
    j["unit"] = d.unit;
    j["avg"] = d.value;
    out->json.emplace_back(d.tag, j.dump());
  }
  out->csv = render_telemetry_csv(in);
  if (!derived.empty()) {
    out->csv += "\nMetric,Value\n";
    for (const auto& d : derived)
      out->csv += fmt::format("{} ({}),{:.6g}\n", d.header, d.unit, d.value);
  }
  if (options_.gpu_console) out->console += render_telemetry_console(in);
  out->console += render_energy_console(*in.series, in.window, derived);
}

void TelemetrySession::add_rtt_sections(const metrics::Summary& s,
                                        exporter::ExtraSections* out) const {
  std::optional<double> rtt_ms = options_.rtt_fixed_ms;
  if (!rtt_ms && prober_) {
    out->files.emplace_back(kNetworkLatencyJsonl, prober_->jsonl());
    if (auto ns = prober_->mean_rtt_ns()) rtt_ms = *ns / 1e6;
  }
  if (!rtt_ms) {
    if (prober_) SB_LOG_WARN("network RTT: no probe succeeded; no network-adjusted metrics");
    return;
  }
  json rtt;
  rtt["unit"] = "ms";
  rtt["avg"] = *rtt_ms;
  out->json.emplace_back("network_rtt", rtt.dump());
  std::string console = fmt::format("\nservebench | Network RTT: {:.3f} ms ({})\n", *rtt_ms,
                                    options_.rtt_fixed_ms ? "--network-latency-mean"
                                                          : "TCP-connect probes, mean");
  for (const char* tag : kAdjustedTags) {
    json j;
    j["unit"] = "ms";
    bool any = false;
    for (const char* stat : kAdjustedStats) {
      double v = 0;
      if (!s.lookup(tag, stat, &v)) continue;
      any = true;
      const std::string_view st = stat;
      j[stat] = (st == "std" || st == "count") ? v : std::max(0.0, v - *rtt_ms);
    }
    if (!any) continue;
    out->json.emplace_back(fmt::format("network_adjusted_{}", tag), j.dump());
    console += fmt::format("  network_adjusted_{:<28} avg {:>10.3f} ms  p99 {:>10.3f} ms\n", tag,
                           j.value("avg", 0.0), j.value("p99", 0.0));
  }
  out->console += console;
}

}  // namespace servebench::gpu_telemetry
