// The DCGM collector against servebench-mock's DCGM-exporter listener, started in-process on an
// ephemeral loopback port.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <map>

#include "dcgm_exporter.h"
#include "gpu_telemetry/gpu_metrics.h"
#include "gpu_telemetry/telemetry_session.h"

namespace servebench::gpu_telemetry {
namespace {

std::map<std::string, double> values_of(const GpuReading& r) {
  return {r.values.begin(), r.values.end()};
}

TEST(DcgmCollector, ReadsTheExporterPerGpuWithLabelsAndUnits) {
  std::atomic<int64_t> running{16};
  mock::DcgmConfig cfg;
  cfg.port = 0;
  cfg.gpus = 2;
  cfg.hostname = "node-7";
  auto exporter = mock::DcgmExporter::start(cfg, [&running] { return running.load(); });
  ASSERT_TRUE(exporter) << exporter.error().message;
  const std::string url = "http://127.0.0.1:" + std::to_string((*exporter)->port()) + "/metrics";
  auto custom = parse_custom_metrics_csv(
      "DCGM_FI_DEV_FB_FREE, gauge, Framebuffer memory free (in MiB)\n", "c.csv");
  ASSERT_TRUE(custom);
  std::vector<DcgmField> fields = default_dcgm_fields();
  fields.insert(fields.end(), custom->begin(), custom->end());
  auto c = make_dcgm_collector(url, fields);
  ASSERT_TRUE(c->open());
  auto got = c->collect();
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got->size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const GpuReading& r = (*got)[i];
    EXPECT_EQ(r.gpu.index, i);
    EXPECT_EQ(r.gpu.source, url);
    EXPECT_EQ(r.gpu.endpoint, "127.0.0.1:" + std::to_string((*exporter)->port()));
    EXPECT_EQ(r.gpu.uuid, "GPU-d0c6a000-0000-4000-8000-00000000000" + std::to_string(i));
    EXPECT_EQ(r.gpu.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(r.gpu.hostname, "node-7");
    EXPECT_EQ(r.gpu.device, "nvidia" + std::to_string(i));
    EXPECT_FALSE(r.gpu.pci_bus_id.empty());
    auto v = values_of(r);
    // Half of the mock's saturation: GPU 0 at 50 %, GPU 1 at 45 %.
    EXPECT_DOUBLE_EQ(v.at("nvidia_gpu_utilization"), i == 0 ? 50.0 : 45.0);
    EXPECT_DOUBLE_EQ(v.at("nvidia_sm_utilization"), i == 0 ? 50.0 : 45.0);  // ratio × 100
    EXPECT_NEAR(v.at("nvidia_memory_used"), (20000 + 1000.0 * i + 40 * 16) * 1.048576e-3, 1e-9);
    EXPECT_GT(v.at("fb_free"), 0);  // the custom field, in MiB as exported
    EXPECT_EQ(v.count("nvidia_energy_consumption"), 1u);
  }
  running = 0;
  auto idle = c->collect();
  ASSERT_TRUE(idle);
  EXPECT_DOUBLE_EQ(values_of((*idle)[0]).at("nvidia_power_usage"), cfg.idle_w);
  EXPECT_GE(values_of((*idle)[0]).at("nvidia_energy_consumption"),
            values_of((*got)[0]).at("nvidia_energy_consumption"));
}

TEST(DcgmCollector, UserInfoStaysOutOfWhatIsShown) {
  mock::DcgmConfig cfg;
  cfg.port = 0;
  auto exporter = mock::DcgmExporter::start(cfg, [] { return int64_t{0}; });
  ASSERT_TRUE(exporter);
  const std::string port = std::to_string((*exporter)->port());
  auto c = make_dcgm_collector("http://scraper:s3cret@127.0.0.1:" + port + "/metrics",
                               default_dcgm_fields());
  EXPECT_EQ(c->source().find("s3cret"), std::string::npos) << c->source();
  ASSERT_TRUE(c->open());
  auto got = c->collect();
  ASSERT_TRUE(got);
  ASSERT_FALSE(got->empty());
  EXPECT_EQ((*got)[0].gpu.endpoint, "127.0.0.1:" + port);
  EXPECT_EQ((*got)[0].gpu.source.find("s3cret"), std::string::npos);
}

TEST(DcgmCollector, SilentListenerTimesOutWithinTheReachabilityTimeout) {
  // Listens (the kernel completes handshakes) but never answers.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ASSERT_EQ(listen(fd, 8), 0);
  socklen_t len = sizeof(a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  auto c = make_dcgm_collector("http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/metrics",
                               default_dcgm_fields(), 200'000'000);
  auto st = c->open();
  close(fd);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kTimeout) << st.error().message;
}

TEST(DcgmCollector, UnreachableOrNotDcgmIsSkipped) {
  auto dead = make_dcgm_collector("http://127.0.0.1:9/metrics", default_dcgm_fields());
  EXPECT_FALSE(dead->open());
  mock::DcgmConfig cfg;
  cfg.port = 0;
  auto exporter = mock::DcgmExporter::start(cfg, [] { return int64_t{0}; });
  ASSERT_TRUE(exporter);
  // The exporter answers 404 off /metrics.
  auto wrong = make_dcgm_collector(
      "http://127.0.0.1:" + std::to_string((*exporter)->port()) + "/other", default_dcgm_fields());
  auto st = wrong->open();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("HTTP 404"), std::string::npos) << st.error().message;
}

}  // namespace
}  // namespace servebench::gpu_telemetry
