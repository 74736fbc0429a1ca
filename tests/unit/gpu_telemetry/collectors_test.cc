// The NVML and AMD SMI collectors against the fake libraries built from tests/fakes/ (same
// entry points and ABI as the real ones), opened by path.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fakes/fake_gpu_values.h"
#include "gpu_telemetry/gpu_collector.h"

namespace servebench::gpu_telemetry {
namespace {

std::string fake(const char* rel) { return std::string(SERVEBENCH_TEST_BIN_DIR) + "/fakes/" + rel; }

std::map<std::string, double> values_of(const GpuReading& r) {
  return {r.values.begin(), r.values.end()};
}

TEST(NvmlCollector, ReadsTwoFakeGpus) {
  auto c = make_nvml_collector(fake("nvml/libnvidia-ml.so.1"));
  ASSERT_TRUE(c->open()) << "fake NVML did not open";
  EXPECT_EQ(c->source(), "pynvml://localhost");
  auto first = c->collect();
  ASSERT_TRUE(first);
  ASSERT_EQ(first->size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const GpuReading& r = (*first)[i];
    EXPECT_EQ(r.gpu.index, i);
    EXPECT_EQ(r.gpu.platform, "nvidia");
    EXPECT_EQ(r.gpu.name, "Fake NVIDIA H100 80GB HBM3");
    EXPECT_EQ(r.gpu.uuid, "GPU-fa4e0000-0000-4000-8000-00000000000" + std::to_string(i));
    auto v = values_of(r);
    EXPECT_DOUBLE_EQ(v.at("nvidia_power_usage"), kFakePowerW[i]);
    EXPECT_DOUBLE_EQ(v.at("nvidia_gpu_utilization"), kFakeGpuUtil[i]);
    EXPECT_DOUBLE_EQ(v.at("nvidia_memory_utilization"), kFakeMemUtil[i]);
    EXPECT_DOUBLE_EQ(v.at("nvidia_memory_used"), kFakeMemUsedBytes[i] / 1e9);
    EXPECT_DOUBLE_EQ(v.at("nvidia_temperature"), kFakeTempC[i]);
    EXPECT_GE(v.at("nvidia_energy_consumption"), kFakeEnergyBaseMj * 1e-9);
    EXPECT_EQ(v.count("nvidia_power_violation"), 1u);
    EXPECT_EQ(v.count("nvidia_thermal_violation"), 0u);  // not supported by the fake
    EXPECT_EQ(v.count("nvidia_jpg_utilization"), 0u);    // symbol absent
  }
  auto second = c->collect();
  ASSERT_TRUE(second);
  EXPECT_GE(values_of((*second)[1]).at("nvidia_energy_consumption"),
            values_of((*first)[1]).at("nvidia_energy_consumption"));
}

TEST(NvmlCollector, SmUtilizationSumsEachProcessNewestSample) {
  auto c = make_nvml_collector(fake("nvml/libnvidia-ml.so.1"));
  ASSERT_TRUE(c->open());
  auto r = c->collect();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 2u);
  EXPECT_DOUBLE_EQ(values_of((*r)[0]).at("nvidia_sm_utilization"), kFakeSmUtil0);
  EXPECT_DOUBLE_EQ(values_of((*r)[1]).at("nvidia_sm_utilization"), 0.0);  // no process
}

TEST(NvmlCollector, XidEventsReportTheLastXidOnGpusThatSupportThem) {
  auto c = make_nvml_collector(fake("nvml/libnvidia-ml.so.1"));
  ASSERT_TRUE(c->open());
  auto first = c->collect();
  ASSERT_TRUE(first);
  EXPECT_DOUBLE_EQ(values_of((*first)[0]).at("nvidia_xid_errors"), static_cast<double>(kFakeXid));
  EXPECT_EQ(values_of((*first)[1]).count("nvidia_xid_errors"), 0u);  // not supported
  auto second = c->collect();  // no new event: the last XID stays
  ASSERT_TRUE(second);
  EXPECT_DOUBLE_EQ(values_of((*second)[0]).at("nvidia_xid_errors"), static_cast<double>(kFakeXid));
}

TEST(NvmlCollector, MissingLibraryIsOneLineNotAFailure) {
  auto c = make_nvml_collector("/nonexistent/libnvidia-ml.so.1");
  auto st = c->open();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("NVML not available"), std::string::npos);
  EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
}

TEST(NvmlCollector, WrongLibraryIsRejected) {
  auto c = make_nvml_collector(fake("amdsmi/libamd_smi.so"));
  auto st = c->open();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("not NVML"), std::string::npos) << st.error().message;
}

TEST(AmdSmiCollector, ReadsTwoFakeGpus) {
  auto c = make_amdsmi_collector(fake("amdsmi/libamd_smi.so"));
  ASSERT_TRUE(c->open()) << "fake AMD SMI did not open";
  auto got = c->collect();
  ASSERT_TRUE(got);
  ASSERT_EQ(got->size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const GpuReading& r = (*got)[i];
    EXPECT_EQ(r.gpu.platform, "amd");
    EXPECT_EQ(r.gpu.name, "Fake AMD Instinct MI300X");
    EXPECT_EQ(r.gpu.uuid, "fa4e0000-0000-4000-8000-0000000a000" + std::to_string(i));
    auto v = values_of(r);
    EXPECT_DOUBLE_EQ(v.at("amd_power"), kFakePowerW[i]);
    EXPECT_DOUBLE_EQ(v.at("amd_gfx_activity"), kFakeGpuUtil[i]);
    EXPECT_DOUBLE_EQ(v.at("amd_umc_activity"), kFakeMemUtil[i]);
    EXPECT_EQ(v.count("amd_mm_activity"), 0u);  // N/A
    EXPECT_DOUBLE_EQ(v.at("amd_memory_used"), kFakeMemUsedBytes[i] / 1e9);
    EXPECT_DOUBLE_EQ(v.at("amd_temperature"), kFakeTempC[i]);
    EXPECT_DOUBLE_EQ(v.at("amd_ecc_uncorrectable"), i);  // the second field, not correctable
    if (i == 0)
      EXPECT_DOUBLE_EQ(v.at("amd_throttle_status"), 0x21);  // byte 68 of the metrics table
    else
      EXPECT_EQ(v.count("amd_throttle_status"), 0u);  // UINT32_MAX = not supported
    // accumulator × resolution (µJ) in MJ, within one accumulator step.
    EXPECT_NEAR(v.at("amd_energy_consumption"), kFakeEnergyBaseMj * 1e-9, 1e-3);
  }
}

}  // namespace
}  // namespace servebench::gpu_telemetry
