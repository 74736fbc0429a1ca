// Requests in flight, schedule lag, errors by kind, and the GPU / server-metrics series read
// from a folder's telemetry files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "plot/charts.h"
#include "plot/run_data.h"

namespace servebench::plot {
namespace {

const Chart* find(const std::vector<Chart>& charts, const std::string& id) {
  for (const auto& c : charts)
    if (c.id == id) return &c;
  return nullptr;
}

// Two requests over [0, 10) s: one for the whole span, one for its second half.
RunData two_requests() {
  RunData r;
  r.name = "r";
  r.any_start_s = {0, 5};
  r.any_end_s = {10, 10};
  r.lag_ms = {0.5, NAN};
  return r;
}

TEST(ClientCharts, InFlightIsTheTimeEachRequestSpentInEachBin) {
  const auto charts = client_charts(two_requests());
  const Chart* c = find(charts, "concurrency_over_time");
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->series.size(), 1u);
  double area = 0;
  const auto& pts = c->series[0].points;
  ASSERT_GE(pts.size(), 10u);
  const double width = pts[1].x - pts[0].x;
  for (const auto& p : pts) {
    area += p.y * width;
    if (p.x < 4.5) {
      EXPECT_NEAR(p.y, 1.0, 1e-9) << p.x;
    }
    if (p.x > 5.5 && p.x < 9.5) {
      EXPECT_NEAR(p.y, 2.0, 1e-9) << p.x;
    }
  }
  EXPECT_NEAR(area, 15.0, 1e-9);  // 10 s + 5 s of requests
  EXPECT_NE(find(charts, "schedule_lag_over_time"), nullptr);
  EXPECT_EQ(find(charts, "errors_over_time"), nullptr);  // no failure
}

TEST(ClientCharts, ErrorsOneSeriesPerKindAddingUpToTheFailures) {
  RunData r = two_requests();
  r.error_s = {1, 2, 2.5, 9};
  r.error_kind = {"http", "timeout", "http", "http"};
  const Chart* c = nullptr;
  const auto charts = client_charts(r);
  c = find(charts, "errors_over_time");
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->series.size(), 2u);
  for (const auto& s : c->series) {
    const double width = s.points.size() > 1 ? s.points[1].x - s.points[0].x : 2 * s.points[0].x;
    double total = 0;
    for (const auto& p : s.points) total += p.y * width;
    EXPECT_NEAR(total, s.name == "http" ? 3.0 : 1.0, 1e-9) << s.name;
  }
}

TEST(TelemetryCharts, GaugesFromTheFolderFilesCountersLeftOut) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("sb_plot_tel_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const int64_t origin = 1'000'000'000'000;
  {
    std::ofstream g(dir / "gpu_telemetry_export.jsonl");
    for (int i = 0; i < 3; ++i)
      for (int gpu = 0; gpu < 2; ++gpu)
        g << R"({"gpu_index":)" << gpu << R"(,"gpu_uuid":"GPU-abc-00)" << gpu
          << R"(","timestamp_ns":)" << origin + i * 500'000'000LL
          << R"(,"telemetry_data":{"nvidia_power_usage":)" << 100 + gpu * 50 + i
          << R"(,"nvidia_energy_consumption":1.5}})" << "\n";
    std::ofstream s(dir / "server_metrics_export.jsonl");
    for (int i = 0; i < 4; ++i)
      s << R"({"endpoint_url":"http://h/metrics","timestamp_ns":)" << origin + i * 333'000'000LL
        << R"(,"metrics":{"vllm:num_requests_running":[{"labels":{"model_name":"m"},"value":)" << i
        << R"(}],"vllm:prompt_tokens_total":[{"value":5}],"vllm:ttft":[{"histogram":{"+Inf":1},"count":1,"sum":0.1}]}})"
        << "\n";
  }
  RunData r;
  r.dir = dir.string();
  r.origin_ns = origin;
  const auto charts = telemetry_charts(r);
  fs::remove_all(dir);
  const Chart* power = find(charts, "gpu_nvidia_power_usage_over_time");
  ASSERT_NE(power, nullptr);
  ASSERT_EQ(power->series.size(), 2u);
  EXPECT_EQ(power->series[0].points.size(), 3u);
  EXPECT_DOUBLE_EQ(power->series[1].points.back().y, 152);
  EXPECT_DOUBLE_EQ(power->series[1].points.back().x, 1.0);
  EXPECT_EQ(find(charts, "gpu_nvidia_energy_consumption_over_time"), nullptr);  // a counter
  const Chart* running = find(charts, "server_vllm_num_requests_running_over_time");
  ASSERT_NE(running, nullptr);
  ASSERT_EQ(running->series.size(), 1u);
  EXPECT_EQ(running->series[0].name, "http://h/metrics {model_name=m}");
  EXPECT_EQ(running->series[0].points.size(), 4u);
  EXPECT_EQ(charts.size(), 2u);  // no counter family, no histogram
}

}  // namespace
}  // namespace servebench::plot
