// servebench-mock's DCGM-exporter mode: the fake GPUs follow the load and the energy counter
// integrates the reported power.
#include "dcgm_exporter.h"
#include "options.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

namespace servebench::mock {
namespace {

// value of `metric` for gpu="<gpu>" in the exposition.
double value_of(const std::string& text, const std::string& metric, int gpu) {
  std::istringstream in(text);
  std::string line;
  const std::string prefix = metric + "{gpu=\"" + std::to_string(gpu) + "\"";
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) return std::stod(line.substr(line.rfind(' ') + 1));
  ADD_FAILURE() << metric << " gpu " << gpu << " missing";
  return -1;
}

TEST(MockDcgm, GpusFollowLoadAndCounterIntegratesPower) {
  DcgmConfig c;  // 2 GPUs, 70..700 W, saturation 32
  DcgmGpus gpus(c);
  const std::string idle = gpus.render(1'000'000'000, 0);
  EXPECT_DOUBLE_EQ(value_of(idle, "DCGM_FI_DEV_POWER_USAGE", 0), 70.0);
  EXPECT_DOUBLE_EQ(value_of(idle, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1), 0.0);
  const std::string busy = gpus.render(3'000'000'000, 16);  // 2 s later, half load
  EXPECT_DOUBLE_EQ(value_of(busy, "DCGM_FI_DEV_GPU_UTIL", 0), 50.0);
  EXPECT_DOUBLE_EQ(value_of(busy, "DCGM_FI_DEV_GPU_UTIL", 1), 45.0);
  EXPECT_DOUBLE_EQ(value_of(busy, "DCGM_FI_DEV_POWER_USAGE", 0), 385.0);
  // mJ: the power reported now × 2 s.
  EXPECT_DOUBLE_EQ(value_of(busy, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 0), 770000.0);
  EXPECT_DOUBLE_EQ(value_of(busy, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1),
                   (70.0 + 630.0 * 0.45) * 2 * 1000);
  EXPECT_NE(busy.find("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter"), std::string::npos);
  EXPECT_NE(busy.find("UUID=\"GPU-d0c6a000-0000-4000-8000-000000000001\""), std::string::npos);
  EXPECT_NE(busy.find("modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"servebench-mock\""),
            std::string::npos);
  const std::string saturated = gpus.render(4'000'000'000, 1000);
  EXPECT_DOUBLE_EQ(value_of(saturated, "DCGM_FI_DEV_GPU_UTIL", 0), 100.0);
}

TEST(MockDcgm, OptionsTurnTheModeOnWithItsKnobs) {
  auto off = parse_mock_options({});
  ASSERT_TRUE(off);
  EXPECT_EQ(off->dcgm.port, -1);
  auto on = parse_mock_options({"--dcgm-port", "0", "--dcgm-num-gpus", "3", "--dcgm-gpu-name",
                                "B200", "--dcgm-hostname=node-1", "--host", "127.0.0.1"});
  ASSERT_TRUE(on) << on.error().message;
  EXPECT_EQ(on->dcgm.port, 0);
  EXPECT_EQ(on->dcgm.gpus, 3);
  EXPECT_EQ(on->dcgm.gpu_name, "B200");
  EXPECT_EQ(on->dcgm.hostname, "node-1");
  EXPECT_EQ(on->dcgm.host, "127.0.0.1");
  EXPECT_FALSE(parse_mock_options({"--dcgm-num-gpus", "9"}));
  EXPECT_FALSE(parse_mock_options({"--dcgm-port", "70000"}));
}

}  // namespace
}  // namespace servebench::mock
