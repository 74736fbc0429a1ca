#include "gpu_telemetry/gpu_sampler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace servebench::gpu_telemetry {
namespace {

// Counts its collections; reports one GPU whose "power" is the collection number.
class CountingCollector : public GpuCollector {
 public:
  explicit CountingCollector(bool opens) : opens_(opens) {}
  std::string source() const override { return opens_ ? "test://ok" : "test://dead"; }
  Status open() override {
    if (!opens_) return make_error(ErrorCode::kNetwork, "connection refused");
    return {};
  }
  Result<std::vector<GpuReading>> collect() override {
    GpuReading r;
    r.gpu.source = source();
    r.gpu.endpoint = "test";
    r.gpu.platform = "nvidia";
    r.gpu.uuid = "GPU-T";
    r.gpu.name = "Test GPU";
    r.values = {{"nvidia_power_usage", static_cast<double>(++n_)}};
    return std::vector<GpuReading>{r};
  }

 private:
  bool opens_;
  int n_ = 0;
};

TEST(GpuSampler, CollectsAtStartAndStopAndWritesJsonl) {
  const std::string path = ::testing::TempDir() + "/gpu_sampler_test.jsonl";
  std::vector<std::unique_ptr<GpuCollector>> cs;
  cs.push_back(std::make_unique<CountingCollector>(true));
  cs.push_back(std::make_unique<CountingCollector>(false));
  const core::Clock& clock = core::SteadyClock::instance();
  GpuSampler s(std::move(cs), kDefaultGpuIntervalNs, clock, core::WallAnchor::capture(clock));
  s.start(path);
  s.stop();
  ASSERT_EQ(s.configured().size(), 2u);
  ASSERT_EQ(s.reachable().size(), 1u);
  EXPECT_EQ(s.reachable()[0], "test://ok");
  ASSERT_EQ(s.notes().size(), 1u);
  EXPECT_NE(s.notes()[0].find("test://dead skipped: connection refused"), std::string::npos);
  ASSERT_EQ(s.series().gpus().size(), 1u);
  const auto& power = s.series().gpus()[0].metrics.at("nvidia_power_usage");
  EXPECT_GE(power.values.size(), 2u);  // the first collection and the one at stop
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["gpu_uuid"], "GPU-T");
    EXPECT_EQ(j["gpu_model_name"], "Test GPU");
    EXPECT_EQ(j["dcgm_url"], "test://ok");
    EXPECT_GT(j["timestamp_ns"].get<int64_t>(), 0);
    EXPECT_EQ(j["telemetry_data"]["nvidia_power_usage"].get<double>(), lines + 1.0);
    ++lines;
  }
  EXPECT_EQ(static_cast<size_t>(lines), power.values.size());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace servebench::gpu_telemetry
