// --gpu-telemetry, --no-gpu-telemetry and the network-latency flags: parsing, AIPerf's value
// forms, and the sources they select (gpu_telemetry/telemetry_session.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "app/telemetry_hooks.h"
#include "config/cli_options.h"
#include "core/secrets.h"
#include "gpu_telemetry/telemetry_session.h"

namespace servebench {
namespace {

Result<config::ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "profile");
  args.insert(args.end(), {"-m", "mock-model"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

TEST(TelemetryFlags, GpuTelemetryAloneTurnsThePanelOn) {
  auto r = parse({"--gpu-telemetry", "--url", "http://h:1"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->config.gpu_telemetry_given);
  EXPECT_TRUE(r->config.gpu_telemetry.empty());
  EXPECT_EQ(r->config.urls.at(0), "http://h:1");
  auto none = parse({});
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->config.gpu_telemetry_given);
  EXPECT_FALSE(none->config.no_gpu_telemetry);
}

TEST(TelemetryFlags, ValuesSelectSources) {
  const std::string csv = ::testing::TempDir() + "/custom_gpu_metrics.csv";
  std::ofstream(csv) << "DCGM_FI_DEV_SM_CLOCK, gauge, SM clock frequency (in MHz)\n";
  auto r = parse({"--gpu-telemetry", "node1:9400", "http://node2:9400/metrics", csv, "dashboard"});
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->config.gpu_telemetry.size(), 4u);
  auto sel = gpu_telemetry::select_gpu_sources(app::telemetry_options(r->config));
  ASSERT_TRUE(sel) << sel.error().message;
  EXPECT_FALSE(sel->nvml);
  const std::vector<std::string> want = {"http://localhost:9400/metrics",
                                         "http://localhost:9401/metrics",
                                         "http://node1:9400/metrics", "http://node2:9400/metrics"};
  EXPECT_EQ(sel->dcgm_urls, want);
  ASSERT_EQ(sel->custom_fields.size(), 1u);
  EXPECT_EQ(sel->custom_fields[0].metric.tag, "sm_clock");
  std::remove(csv.c_str());
}

TEST(TelemetryFlags, LocalCollectorsReplaceDcgmAndNoGpuTelemetryTurnsAllOff) {
  auto r = parse({"--gpu-telemetry", "pynvml"});
  ASSERT_TRUE(r);
  auto sel = gpu_telemetry::select_gpu_sources(app::telemetry_options(r->config));
  ASSERT_TRUE(sel);
  EXPECT_TRUE(sel->nvml);
  EXPECT_FALSE(sel->amdsmi);
  EXPECT_TRUE(sel->dcgm_urls.empty());
  auto off = parse({"--no-gpu-telemetry"});
  ASSERT_TRUE(off);
  auto none = gpu_telemetry::select_gpu_sources(app::telemetry_options(off->config));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->dcgm_urls.empty());
  EXPECT_FALSE(none->nvml);
  auto session = app::make_telemetry(off->config);
  ASSERT_TRUE(session);
  EXPECT_EQ(session->get(), nullptr);  // nothing to collect: no session, no thread
}

TEST(TelemetryFlags, BadValuesAreOneLineUsageErrors) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--gpu-telemetry", "/nonexistent/m.csv"},
        std::vector<std::string>{"--gpu-telemetry", "bad value"},
        std::vector<std::string>{"--network-latency-mean", "-1"},
        std::vector<std::string>{"--network-latency-ping-interval", "0"}}) {
    auto r = parse(args);
    ASSERT_FALSE(r) << args[0] << " " << args[1];
    EXPECT_TRUE(r.error().is_usage());
    EXPECT_NE(r.error().message.find(args[0]), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
}

TEST(TelemetryFlags, NetworkLatencyFlags) {
  auto r = parse({"--network-latency-automatic", "--network-latency-ping-interval", "0.5"});
  ASSERT_TRUE(r) << r.error().message;
  auto o = app::telemetry_options(r->config);
  EXPECT_TRUE(o.rtt_probe);
  EXPECT_EQ(o.rtt_interval_ns, 500'000'000);
  auto fixed = parse({"--network-latency-mean", "2.5"});
  ASSERT_TRUE(fixed);
  EXPECT_EQ(app::telemetry_options(fixed->config).rtt_fixed_ms, 2.5);
}

}  // namespace
}  // namespace servebench
