// Server-metrics and GPU panels from files in the shapes AIPerf documents (aggregates per metric
// and label set; raw GPU samples with a timestamp and a device), rendered generically.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "report_html/report_data.h"

namespace servebench::report_html {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string golden_dir() {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  return std::string(src ? src : SERVEBENCH_TEST_SOURCE_DIR) + "/tests/data/golden";
}

struct TempRun {
  fs::path dir = fs::temp_directory_path() / ("sb-telemetry-" + std::to_string(::getpid()));
  TempRun() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* f : {"profile_export_aiperf.json", "profile_export.jsonl"})
      fs::copy_file(golden_dir() + "/" + f, dir / f);
  }
  ~TempRun() { fs::remove_all(dir); }
  void write(const char* name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
  }
  Json data() const {
    auto d = build_report_data({dir.string(), ""});
    EXPECT_TRUE(d.has_value());
    return Json::parse(*d);
  }
};

TEST(TelemetryPanels, AbsentFilesGiveNoPanels) {
  TempRun run;
  const Json d = run.data();
  EXPECT_FALSE(d.contains("server_metrics"));
  EXPECT_FALSE(d.contains("gpu"));
}

TEST(TelemetryPanels, ServerMetricsRowsFromEveryStatObject) {
  TempRun run;
  run.write("server_metrics_export.json", R"({
    "endpoints": {"http://127.0.0.1:8000/metrics": {"metrics": {
      "vllm:num_requests_running": {"type": "gauge", "series": [
        {"labels": {"model_name": "m"}, "stats": {"avg": 3.5, "max": 8, "p99": 7.9}}]},
      "vllm:generation_tokens": {"type": "counter", "series": [
        {"labels": {"model_name": "m"}, "stats": {"total": 12000, "rate": 400.5}}]}}}}})");
  const Json d = run.data();
  ASSERT_TRUE(d.contains("server_metrics"));
  const Json& rows = d["server_metrics"]["rows"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_NE(rows[0]["name"].get<std::string>().find("vllm:num_requests_running"), std::string::npos);
  EXPECT_EQ(rows[0]["stats"]["avg"], 3.5);
  EXPECT_EQ(rows[1]["stats"]["rate"], 400.5);
}

TEST(TelemetryPanels, GpuSeriesPerDeviceAndField) {
  TempRun run;
  std::string lines;
  for (int i = 0; i < 10; ++i) {
    for (int gpu = 0; gpu < 2; ++gpu) {
      lines += Json{{"timestamp_ns", 1700000010000000000LL + i * 500000000LL}, {"gpu_index", gpu},
                    {"gpu_uuid", "GPU-" + std::to_string(gpu)},
                    {"metrics", {{"gpu_utilization", 50 + i + gpu}, {"gpu_power_usage", 300.5}}}}
                   .dump() + "\n";
    }
  }
  lines += "not json\n";
  run.write("gpu_telemetry_export.jsonl", lines);
  const Json d = run.data();
  ASSERT_TRUE(d.contains("gpu"));
  EXPECT_EQ(d["gpu"]["fields"], Json::array({"metrics.gpu_power_usage", "metrics.gpu_utilization"}));
  ASSERT_EQ(d["gpu"]["series"].size(), 2u);
  const Json& s0 = d["gpu"]["series"][0];
  EXPECT_EQ(s0["t_s"].size(), 10u);
  EXPECT_EQ(s0["values"]["metrics.gpu_utilization"][3], 53);
  EXPECT_EQ(d["gpu"]["series"][1]["values"]["metrics.gpu_utilization"][3], 54);
  // Times are seconds from the report's origin (the first request start, 10.0002 s here).
  EXPECT_NEAR(s0["t_s"][2].get<double>(), 1.0 - 0.0002, 1e-6);
}

}  // namespace
}  // namespace servebench::report_html
