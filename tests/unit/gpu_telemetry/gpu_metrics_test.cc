#include "gpu_telemetry/gpu_metrics.h"

#include <gtest/gtest.h>

namespace servebench::gpu_telemetry {
namespace {

TEST(GpuMetrics, DefaultFieldMapHasAiperfNamesAndUnits) {
  bool power = false, energy = false, fb = false;
  for (const auto& f : default_dcgm_fields()) {
    if (f.field == "DCGM_FI_DEV_POWER_USAGE") {
      power = true;
      EXPECT_EQ(f.metric.tag, "nvidia_power_usage");
      EXPECT_EQ(f.metric.unit, "W");
    }
    if (f.field == "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION") {
      energy = true;
      EXPECT_TRUE(f.metric.counter);
      EXPECT_DOUBLE_EQ(f.scale * 1e9, 1.0);  // mJ → MJ
    }
    if (f.field == "DCGM_FI_DEV_FB_USED") {
      fb = true;
      EXPECT_NEAR(f.scale * 1024, 1.073741824, 1e-12);  // 1 GiB of MiB in GB
    }
  }
  EXPECT_TRUE(power && energy && fb);
}

TEST(GpuMetrics, CustomCsvExtendsTheDefaults) {
  const char* csv =
      "# Format\n"
      "# DCGM FIELD, Prometheus metric type, help message\n"
      "\n"
      "DCGM_FI_DEV_SM_CLOCK, gauge, SM clock frequency (in MHz)\n"
      "DCGM_FI_DEV_POWER_USAGE, gauge, Power draw (in W)\n"
      "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE, gauge, Ratio of cycles, tensor pipe\n"
      "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL, counter, Total double-bit errors\n";
  auto fields = parse_custom_metrics_csv(csv, "m.csv");
  ASSERT_TRUE(fields) << fields.error().message;
  ASSERT_EQ(fields->size(), 3u);  // POWER_USAGE is a default already
  EXPECT_EQ((*fields)[0].metric.tag, "sm_clock");
  EXPECT_EQ((*fields)[0].metric.header, "SM clock frequency");
  EXPECT_EQ((*fields)[0].metric.unit, "MHz");
  EXPECT_FALSE((*fields)[0].metric.counter);
  EXPECT_EQ((*fields)[1].metric.tag, "pipe_tensor_active");
  EXPECT_EQ((*fields)[1].metric.header, "Ratio of cycles, tensor pipe");
  EXPECT_EQ((*fields)[1].metric.unit, "");
  EXPECT_TRUE((*fields)[2].metric.counter);
}

TEST(GpuMetrics, BadCsvLineNamesFileAndLine) {
  auto fields = parse_custom_metrics_csv("# ok\nDCGM_FI_DEV_SM_CLOCK gauge\n", "m.csv");
  ASSERT_FALSE(fields);
  EXPECT_NE(fields.error().message.find("m.csv: line 2"), std::string::npos)
      << fields.error().message;
  auto empty_name = parse_custom_metrics_csv("DCGM_FI_, gauge, nothing\n", "m.csv");
  ASSERT_FALSE(empty_name);
  EXPECT_NE(empty_name.error().message.find("line 1"), std::string::npos);
  auto missing = load_custom_metrics_csv("/nonexistent/metrics.csv");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(missing.error().is_usage());
}

}  // namespace
}  // namespace servebench::gpu_telemetry
