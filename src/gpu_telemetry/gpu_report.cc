#include "gpu_telemetry/gpu_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "export/summary_json.h"

namespace servebench::gpu_telemetry {
namespace {

using json = nlohmann::ordered_json;

const GpuMetricInfo* info_of(const ReportInput& in, const std::string& tag) {
  for (const auto& m : in.metrics)
    if (m.tag == tag) return &m;
  return nullptr;
}

// The series' metrics in display order: known rows first, then any other tag by name.
std::vector<std::pair<GpuMetricInfo, const MetricSeries*>> ordered(const ReportInput& in,
                                                                  const GpuSeries& g) {
  std::vector<std::pair<GpuMetricInfo, const MetricSeries*>> out;
  for (const auto& m : in.metrics) {
    auto it = g.metrics.find(m.tag);
    if (it != g.metrics.end()) out.emplace_back(m, &it->second);
  }
  for (const auto& [tag, s] : g.metrics)
    if (info_of(in, tag) == nullptr) out.emplace_back(GpuMetricInfo{tag, tag, "", false}, &s);
  return out;
}

json stats_json(const metrics::Stats& s, const std::string& unit) {
  json j;
  j["avg"] = s.avg;
  j["min"] = s.min;
  j["max"] = s.max;
  for (size_t i = 0; i < metrics::kPercentiles.size(); ++i) j[metrics::kPercentileNames[i]] = s.p[i];
  j["std"] = s.std;
  j["count"] = s.count;
  j["unit"] = unit;
  return j;
}

std::string label(const GpuMetricInfo& m) {
  return m.unit.empty() ? m.header : fmt::format("{} ({})", m.header, m.unit);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string render_telemetry_json(const ReportInput& in) {
  json root;
  json summary;
  summary["endpoints_configured"] = in.configured;
  summary["endpoints_successful"] = in.reachable;
  summary["start_time"] = exporter::format_wall_time(in.window.start_wall_ns);
  summary["end_time"] = exporter::format_wall_time(in.window.end_wall_ns);
  root["summary"] = std::move(summary);
  json endpoints = json::object();
  for (const GpuSeries& g : in.series->gpus()) {
    json gpu;
    gpu["gpu_index"] = g.gpu.index;
    gpu["gpu_name"] = g.gpu.name;
    gpu["gpu_uuid"] = g.gpu.uuid;
    gpu["platform"] = g.gpu.platform;
    if (!g.gpu.hostname.empty()) gpu["hostname"] = g.gpu.hostname;
    json ms = json::object();
    for (const auto& [m, s] : ordered(in, g))
      if (auto st = window_stats(*s, in.window.start_ns, in.window.end_ns))
        ms[m.tag] = stats_json(*st, m.unit);
    gpu["metrics"] = std::move(ms);
    // Ours: this GPU's energy over the profiling window (+ grace), and how it was obtained.
    const auto [counter, power] = energy_tags(g.gpu.platform);
    if (auto e = gpu_energy(g, counter, power, in.window.start_ns, in.window.end_ns)) {
      json energy;
      energy["joules"] = e->joules;
      energy["source"] = e->source == EnergySource::kCounter ? "energy_counter" : "power_integration";
      energy["avg_power_w"] = e->avg_power_w;
      gpu["servebench_energy"] = std::move(energy);
    }
    endpoints[g.gpu.endpoint]["gpus"][fmt::format("gpu_{}", g.gpu.index)] = std::move(gpu);
  }
  root["endpoints"] = std::move(endpoints);
  return root.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string render_telemetry_csv(const ReportInput& in) {
  std::string out = "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max";
  for (const char* p : metrics::kPercentileNames) out += fmt::format(",{}", p);
  out += ",std\n";
  for (const GpuSeries& g : in.series->gpus()) {
    for (const auto& [m, s] : ordered(in, g)) {
      auto st = window_stats(*s, in.window.start_ns, in.window.end_ns);
      if (!st) continue;
      out += fmt::format("{},{},{},{},{},{},{:.2f},{:.2f},{:.2f}", csv_field(g.gpu.endpoint),
                         g.gpu.index, csv_field(g.gpu.name), csv_field(g.gpu.uuid),
                         g.gpu.platform, csv_field(label(m)), st->avg, st->min, st->max);
      for (double p : st->p) out += fmt::format(",{:.2f}", p);
      out += fmt::format(",{:.2f}\n", st->std);
    }
  }
  return out;
}

std::string render_telemetry_console(const ReportInput& in) {
  std::string out = "\nservebench | GPU Telemetry Summary\n";
  out += fmt::format("{}/{} telemetry sources reachable\n", in.reachable.size(),
                     in.configured.size());
  for (const auto& c : in.configured) {
    const bool ok = std::find(in.reachable.begin(), in.reachable.end(), c) != in.reachable.end();
    out += fmt::format("  * {} {}\n", c, ok ? "ok" : "unreachable");
  }
  std::set<std::string> platforms;
  for (const GpuSeries& g : in.series->gpus()) platforms.insert(g.gpu.platform);
  for (const auto& p : platforms)
    out += fmt::format(
        "GPU telemetry platform: {}. Metric semantics are platform-specific; compare across "
        "platforms only after validating the workload and the collector.\n",
        p);
  for (const GpuSeries& g : in.series->gpus()) {
    out += fmt::format("\n{} | GPU {} | {}\n", g.gpu.endpoint, g.gpu.index, g.gpu.name);
    out += fmt::format("{:>36} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9}\n", "Metric",
                       "avg", "min", "max", "p99", "p90", "p50", "std");
    size_t rows = 0;
    for (const auto& [m, s] : ordered(in, g)) {
      auto st = window_stats(*s, in.window.start_ns, in.window.end_ns);
      if (!st) continue;
      ++rows;
      out += fmt::format("{:>36} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} "
                         "{:>9.2f}\n",
                         label(m), st->avg, st->min, st->max, st->p[8], st->p[6], st->p[4],
                         st->std);
    }
    if (rows == 0)
      out += "  (no sample inside the profiling window: it was shorter than the sampling interval)\n";
  }
  return out;
}

std::vector<DerivedMetric> energy_metrics(const GpuSeriesSet& series, const ReportWindow& w,
                                          const RunTotals& t) {
  struct Sum {
    double joules = 0;
    double power_w = 0;
    double measured_power_w = 0;  // Σ joules / span of the samples the energy came from
    int gpus = 0;
  };
  std::map<std::string, Sum> by_platform;
  for (const GpuSeries& g : series.gpus()) {
    const auto [counter, power] = energy_tags(g.gpu.platform);
    auto e = gpu_energy(g, counter, power, w.start_ns, w.end_ns);
    if (!e) continue;
    Sum& s = by_platform[g.gpu.platform];
    s.joules += e->joules;
    s.power_w += e->avg_power_w;
    if (e->span_ns > 0) s.measured_power_w += e->joules / (static_cast<double>(e->span_ns) / 1e9);
    ++s.gpus;
  }
  std::vector<DerivedMetric> out;
  for (const auto& [platform_key, s] : by_platform) {
    const std::string& platform = platform_key;  // lambdas capture bindings only from clang 16
    auto add = [&](const char* name, const char* header, const char* unit, double v) {
      out.push_back({platform + "_" + name, header, unit, v});
    };
    add("total_gpu_energy", "Total GPU Energy", "J", s.joules);
    add("total_gpu_power", "Total GPU Power", "W", s.power_w);
    add("average_gpu_power", "Average GPU Power", "W", s.measured_power_w);
    if (s.joules > 0 && t.output_tokens)
      add("output_tokens_per_joule", "Output Tokens per Joule", "tokens/J",
          *t.output_tokens / s.joules);
    if (t.output_tokens && *t.output_tokens > 0)
      add("energy_per_output_token", "Energy per Output Token", "mJ/token",
          s.joules * 1e3 / *t.output_tokens);
    if (t.output_tokens && t.input_tokens && *t.output_tokens + *t.input_tokens > 0)
      add("energy_per_total_token", "Energy per Total Token", "mJ/token",
          s.joules * 1e3 / (*t.output_tokens + *t.input_tokens));
    if (t.requests && *t.requests > 0) {
      add("energy_per_request", "Energy per Request", "J/request", s.joules / *t.requests);
      // Energy per request times the mean request latency (AIPerf's energy-delay product).
      if (t.request_latency_ms && *t.request_latency_ms > 0)
        add("energy_delay_product", "Energy Delay Product", "J*s",
            s.joules / *t.requests * (*t.request_latency_ms / 1e3));
    }
    if (t.concurrency && *t.concurrency > 0)
      add("energy_per_user", "Energy per User", "J/user", s.joules / *t.concurrency);
    if (s.power_w > 0) {
      if (t.output_token_throughput)
        add("output_tps_per_watt", "Output TPS per Watt", "tokens/sec/W",
            *t.output_token_throughput / s.power_w);
      if (t.request_throughput)
        add("performance_per_watt", "Performance per Watt", "requests/sec/W",
            *t.request_throughput / s.power_w);
      if (t.goodput)
        add("goodput_per_watt", "Goodput per Watt", "requests/sec/W", *t.goodput / s.power_w);
    }
  }
  return out;
}

std::string render_energy_console(const GpuSeriesSet& series, const ReportWindow& w,
                                  const std::vector<DerivedMetric>& derived) {
  if (series.empty()) return "";
  std::string out = "\nservebench | Power Efficiency\n";
  if (w.end_ns - w.start_ns < 2 * kEnergyGraceNs)
    out += fmt::format(
        "  Note: the profiling window ({:.0f} ms) is short next to the 333 ms sampling interval "
        "and the 666 ms grace; the energy covers the samples around it, so per-token figures "
        "are overstated. Run longer for energy numbers.\n",
        static_cast<double>(w.end_ns - w.start_ns) / 1e6);
  for (const GpuSeries& g : series.gpus()) {
    const auto [counter, power] = energy_tags(g.gpu.platform);
    auto e = gpu_energy(g, counter, power, w.start_ns, w.end_ns);
    if (!e) continue;
    out += fmt::format("  {} GPU {} ({}): {:.3f} J ({}), avg {:.2f} W\n", g.gpu.endpoint,
                       g.gpu.index, g.gpu.uuid, e->joules,
                       e->source == EnergySource::kCounter ? "energy counter"
                                                           : "power integrated",
                       e->avg_power_w);
  }
  for (const auto& d : derived)
    out += fmt::format("  {:<58} {:>14.4f} {}\n", d.header + " [" + d.tag + "]", d.value, d.unit);
  return out;
}

}  // namespace servebench::gpu_telemetry
