#include "gpu_telemetry/network_rtt.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace servebench::gpu_telemetry {
namespace {

TEST(NetworkRtt, HostPortOfUrls) {
  auto a = host_port_of("http://example.com:8000/v1/chat");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "example.com");
  EXPECT_EQ(a->port, 8000);
  auto b = host_port_of("https://user:pw@api.example.com/v1");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->host, "api.example.com");
  EXPECT_EQ(b->port, 443);
  auto c = host_port_of("http://[::1]:9000");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->host, "::1");
  EXPECT_EQ(c->port, 9000);
  EXPECT_FALSE(host_port_of("http://:80/"));
  EXPECT_FALSE(host_port_of("http://h:8x0/"));
}

// A listening loopback socket on an ephemeral port (accepting is not needed for the handshake).
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    listen(fd, 64);
    socklen_t len = sizeof(a);
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ~Listener() { close(fd); }
};

TEST(NetworkRtt, ConnectProbeMeasuresAndFailsCleanly) {
  Listener l;
  auto rtt = tcp_connect_rtt_ns({"127.0.0.1", l.port}, kRttConnectTimeoutNs);
  ASSERT_TRUE(rtt) << rtt.error().message;
  EXPECT_GT(*rtt, 0);
  const int dead = l.port;
  close(l.fd);
  l.fd = socket(AF_INET, SOCK_STREAM, 0);  // the port is closed now
  auto refused = tcp_connect_rtt_ns({"127.0.0.1", dead}, kRttConnectTimeoutNs);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("connect"), std::string::npos);
}

TEST(NetworkRtt, ProberTakesAtLeastFiveSamplesPerEndpoint) {
  Listener l;
  const core::Clock& clock = core::SteadyClock::instance();
  RttProber p({"http://127.0.0.1:" + std::to_string(l.port) + "/v1",
               "http://127.0.0.1:" + std::to_string(l.port) + "/other"},
              kDefaultRttIntervalNs, clock, core::WallAnchor::capture(clock));
  p.start();
  p.stop();  // tops up to five at once
  int good = 0;
  for (const auto& probe : p.probes()) {
    EXPECT_EQ(probe.endpoint, "127.0.0.1:" + std::to_string(l.port));  // one target, deduplicated
    good += probe.rtt_ns ? 1 : 0;
  }
  EXPECT_GE(good, kMinRttSamples);
  ASSERT_TRUE(p.mean_rtt_ns());
  EXPECT_GT(*p.mean_rtt_ns(), 0);
  EXPECT_NE(p.jsonl().find("\"rtt_ms\""), std::string::npos);
}

}  // namespace
}  // namespace servebench::gpu_telemetry
