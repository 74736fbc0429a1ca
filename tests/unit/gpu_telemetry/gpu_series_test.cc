#include "gpu_telemetry/gpu_series.h"

#include <gtest/gtest.h>

namespace servebench::gpu_telemetry {
namespace {

constexpr int64_t kS = 1'000'000'000;

GpuReading reading(std::vector<std::pair<std::string, double>> values) {
  GpuReading r;
  r.gpu.source = "pynvml://localhost";
  r.gpu.uuid = "GPU-1";
  r.gpu.platform = "nvidia";
  r.values = std::move(values);
  return r;
}

TEST(GpuSeries, WindowStatsUseSampleStdAndWindowBounds) {
  GpuSeriesSet set;
  const double w[] = {1, 2, 3, 4, 100};
  for (int i = 0; i < 5; ++i) set.add(reading({{"nvidia_power_usage", w[i]}}), i * kS);
  const MetricSeries& s = set.gpus()[0].metrics.at("nvidia_power_usage");
  auto st = window_stats(s, 0, 3 * kS);  // 1, 2, 3, 4
  ASSERT_TRUE(st);
  EXPECT_EQ(st->count, 4);
  EXPECT_DOUBLE_EQ(st->avg, 2.5);
  EXPECT_NEAR(st->std, 1.2909944487358056, 1e-12);  // ddof = 1
  EXPECT_DOUBLE_EQ(st->p[4], 2.5);                  // p50, linear
  EXPECT_FALSE(window_stats(s, 10 * kS, 11 * kS));
  auto one = window_stats(s, 4 * kS, 4 * kS);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->std, 0);
}

TEST(GpuSeries, EnergyFromCounterUsesBaselineBeforeWindowAndGrace) {
  GpuSeriesSet set;
  // Counter in MJ: +0.001 MJ (1 kJ) per second; a sample every second from t=0 to t=10.
  for (int i = 0; i <= 10; ++i)
    set.add(reading({{"nvidia_energy_consumption", 5.0 + 0.001 * i},
                     {"nvidia_power_usage", 1000.0}}),
            i * kS);
  // Window [2.5 s, 6.2 s] + 666 ms grace: baseline sample at 2 s, end sample at 6 s.
  auto e = gpu_energy(set.gpus()[0], "nvidia_energy_consumption", "nvidia_power_usage",
                      2'500'000'000, 6'200'000'000);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->source, EnergySource::kCounter);
  EXPECT_NEAR(e->joules, 4000.0, 1e-6);
  EXPECT_DOUBLE_EQ(e->avg_power_w, 1000.0);
  // With the grace reaching the 7 s sample.
  auto e2 = gpu_energy(set.gpus()[0], "nvidia_energy_consumption", "nvidia_power_usage",
                       2'500'000'000, 6'400'000'000);
  ASSERT_TRUE(e2);
  EXPECT_NEAR(e2->joules, 5000.0, 1e-6);
}

TEST(GpuSeries, CounterResetAddsIncreasesOnly) {
  GpuSeriesSet set;
  const double mj[] = {1.0, 1.002, 0.0005, 0.0015};  // driver reset after the 2nd sample
  for (int i = 0; i < 4; ++i) set.add(reading({{"amd_energy_consumption", mj[i]}}), i * kS);
  auto e = gpu_energy(set.gpus()[0], "amd_energy_consumption", "amd_power", 0, 3 * kS, 0);
  ASSERT_TRUE(e);
  EXPECT_NEAR(e->joules, 3000.0, 1e-6);  // 2 kJ + 1 kJ
}

TEST(GpuSeries, PowerIntegrationWithoutCounter) {
  GpuSeriesSet set;
  const double w[] = {100, 200, 200};
  for (int i = 0; i < 3; ++i) set.add(reading({{"nvidia_power_usage", w[i]}}), i * kS);
  auto e = gpu_energy(set.gpus()[0], "nvidia_energy_consumption", "nvidia_power_usage", 0,
                      2 * kS, 0);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->source, EnergySource::kPowerIntegration);
  EXPECT_NEAR(e->joules, 150.0 + 200.0, 1e-9);  // trapezoids
  GpuSeriesSet single;
  single.add(reading({{"nvidia_power_usage", 5}}), 0);
  EXPECT_FALSE(gpu_energy(single.gpus()[0], "nvidia_energy_consumption", "nvidia_power_usage",
                          0, kS));
}

TEST(GpuSeries, GpusKeptApartBySourceAndUuid) {
  GpuSeriesSet set;
  GpuReading a = reading({{"nvidia_power_usage", 1}});
  GpuReading b = a;
  b.gpu.uuid = "GPU-2";
  set.add(a, 0);
  set.add(b, 0);
  set.add(a, kS);
  ASSERT_EQ(set.gpus().size(), 2u);
  EXPECT_EQ(set.gpus()[0].metrics.at("nvidia_power_usage").values.size(), 2u);
}

}  // namespace
}  // namespace servebench::gpu_telemetry
