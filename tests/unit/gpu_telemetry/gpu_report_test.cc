#include "gpu_telemetry/gpu_report.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

namespace servebench::gpu_telemetry {
namespace {

constexpr int64_t kS = 1'000'000'000;

// Two NVIDIA GPUs at 100 W and 300 W with counters integrating that power; samples each second.
GpuSeriesSet two_gpus() {
  GpuSeriesSet set;
  for (int t = 0; t <= 10; ++t) {
    for (int g = 0; g < 2; ++g) {
      GpuReading r;
      r.gpu.source = "http://node1:9401/metrics";
      r.gpu.endpoint = "node1:9401";
      r.gpu.platform = "nvidia";
      r.gpu.index = g;
      r.gpu.uuid = "GPU-" + std::to_string(g);
      r.gpu.name = "H100";
      const double w = g == 0 ? 100 : 300;
      r.values = {{"nvidia_power_usage", w}, {"nvidia_energy_consumption", 1.0 + w * t * 1e-6}};
      set.add(r, t * kS);
    }
  }
  return set;
}

ReportInput input(const GpuSeriesSet& set) {
  ReportInput in;
  in.series = &set;
  in.metrics = builtin_gpu_metrics();
  in.configured = {"http://localhost:9400/metrics", "http://node1:9401/metrics"};
  in.reachable = {"http://node1:9401/metrics"};
  in.window.start_ns = 2 * kS;
  in.window.end_ns = 6 * kS;
  return in;
}

TEST(GpuReport, EnergyMetricsFromCountersAndRunTotals) {
  const GpuSeriesSet set = two_gpus();
  RunTotals t;
  t.output_tokens = 1000;
  t.input_tokens = 3000;
  t.requests = 10;
  t.output_token_throughput = 250;
  t.request_throughput = 2.5;
  t.concurrency = 4;
  t.request_latency_ms = 250;
  std::map<std::string, double> m;
  for (const auto& d : energy_metrics(set, input(set).window, t)) m[d.tag] = d.value;
  // Window [2 s, 6 s] + 666 ms grace: samples 2 s → 6 s, 4 s at 400 W total.
  EXPECT_NEAR(m.at("nvidia_total_gpu_energy"), 1600.0, 1e-6);
  EXPECT_NEAR(m.at("nvidia_total_gpu_power"), 400.0, 1e-9);
  EXPECT_NEAR(m.at("nvidia_average_gpu_power"), 400.0, 1e-6);
  EXPECT_NEAR(m.at("nvidia_output_tokens_per_joule"), 1000.0 / 1600.0, 1e-9);
  EXPECT_NEAR(m.at("nvidia_energy_per_output_token"), 1600.0 * 1e3 / 1000.0, 1e-6);
  EXPECT_NEAR(m.at("nvidia_energy_per_total_token"), 1600.0 * 1e3 / 4000.0, 1e-6);
  EXPECT_NEAR(m.at("nvidia_energy_per_request"), 160.0, 1e-6);
  EXPECT_NEAR(m.at("nvidia_energy_per_user"), 400.0, 1e-6);
  EXPECT_NEAR(m.at("nvidia_energy_delay_product"), 160.0 * 0.25, 1e-6);  // J/request × s
  EXPECT_NEAR(m.at("nvidia_output_tps_per_watt"), 250.0 / 400.0, 1e-9);
  EXPECT_NEAR(m.at("nvidia_performance_per_watt"), 2.5 / 400.0, 1e-9);
  EXPECT_EQ(m.count("nvidia_goodput_per_watt"), 0u);  // no --goodput
}

TEST(GpuReport, TelemetryJsonHasAiperfLayout) {
  const GpuSeriesSet set = two_gpus();
  auto j = nlohmann::json::parse(render_telemetry_json(input(set)));
  EXPECT_EQ(j["summary"]["endpoints_successful"].size(), 1u);
  const auto& gpu1 = j["endpoints"]["node1:9401"]["gpus"]["gpu_1"];
  EXPECT_EQ(gpu1["gpu_uuid"], "GPU-1");
  EXPECT_EQ(gpu1["platform"], "nvidia");
  const auto& p = gpu1["metrics"]["nvidia_power_usage"];
  EXPECT_EQ(p["unit"], "W");
  EXPECT_EQ(p["count"], 5);  // samples at 2..6 s
  EXPECT_DOUBLE_EQ(p["avg"].get<double>(), 300.0);
  for (const char* k : {"min", "max", "p1", "p50", "p99", "std"}) {
    EXPECT_TRUE(p.contains(k)) << k;
  }
}

TEST(GpuReport, CsvTableHeaderAndRows) {
  const GpuSeriesSet set = two_gpus();
  const std::string csv = render_telemetry_csv(input(set));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "Endpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,p1,p5,p10,p25,p50,"
            "p75,p90,p95,p99,std");
  EXPECT_NE(csv.find("node1:9401,1,H100,GPU-1,nvidia,NVIDIA GPU Power Usage (W),300.00"),
            std::string::npos)
      << csv;
  const std::string console = render_telemetry_console(input(set));
  EXPECT_NE(console.find("1/2 telemetry sources reachable"), std::string::npos) << console;
}

}  // namespace
}  // namespace servebench::gpu_telemetry
