// servebench profile's AIPerf parity options against servebench-mock.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

// A loopback port that was free a moment ago (for a server started later).
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

TEST(ParityIntegration, WaitsForAMockStartedLateThenProfilesAroundTheLoad) {
  const std::string dir = make_temp_dir("parity-late");
  const int port = free_port();
  const std::string rec = dir + "/rec.jsonl";
  Server mock;
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    // 20 ms to the first token: the 12 profiling requests take ~120 ms, longer than the start
    // POST's round trip (with an instant server the whole load could end before it lands).
    mock.start_mock({"--port", std::to_string(port), "--record-requests", rec, "--ttft-ms", "20"});
  });
  auto r = run_profile(dir, {"-m", "mock-model", "-u", "http://127.0.0.1:" + std::to_string(port),
                             "--tokenizer", "builtin", "--concurrency", "2", "--request-count", "12",
                             "--warmup-request-count", "3", "--warmup-concurrency", "1",
                             "--wait-for-model-timeout", "20", "--wait-for-model-interval", "0.2",
                             "--wait-for-model-mode", "both", "--server-profiler", "--ui", "none",
                             "--no-report"});
  late.join();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  mock.stop();
  const auto lines = read_jsonl(rec);
  int start = -1, stop = -1, generations = 0, before_start = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string path = lines[i].value("path", "");
    if (path == "/start_profile") start = static_cast<int>(i);
    else if (path == "/stop_profile") stop = static_cast<int>(i);
    else if (path == "/v1/chat/completions" && ++generations && start < 0) ++before_start;
  }
  ASSERT_GE(start, 0) << "profiler start was posted";
  ASSERT_GT(stop, start) << "stop after start";
  EXPECT_EQ(stop, static_cast<int>(lines.size()) - 1) << "stop after every profiling request";
  EXPECT_EQ(generations, 1 + 3 + 12) << "readiness probe + warm-up + profiling";
  // With a warm-up the start is posted from the load_started hook: after the probe and the whole
  // warm-up, possibly a few profiling requests late (app/server_profiler.h).
  EXPECT_GE(before_start, 1 + 3) << "the profiler starts after the probe and the warm-up";
  EXPECT_LT(before_start, generations);
}

TEST(ParityIntegration, WaitForModelTimesOutWithExit3) {
  const std::string dir = make_temp_dir("parity-timeout");
  const int port = free_port();  // nothing listens
  auto r = run_profile(dir, {"-m", "mock-model", "-u", "http://127.0.0.1:" + std::to_string(port),
                             "--tokenizer", "builtin", "--request-count", "2",
                             "--wait-for-model-timeout", "1", "--wait-for-model-interval", "0.2",
                             "--ui", "none", "--no-report"});
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("was not ready within 1 s"), std::string::npos) << r.stderr_text;
}

TEST(ParityIntegration, FailedRequestThresholdStopsEarly) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--error-rate", "60", "--error-kind", "http500", "--ttft-ms", "5"}));
  const std::string dir = make_temp_dir("parity-threshold");
  auto r = run_profile(dir, {"-m", "mock-model", "-u", mock.url(), "--tokenizer", "builtin",
                             "--concurrency", "2", "--request-count", "2000",
                             "--failed-request-threshold", "0.2", "--ui", "none", "--no-report"});
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("--failed-request-threshold 0.2"), std::string::npos) << r.stderr_text;
  ASSERT_FALSE(r.artifact_dir.empty());
  const auto records = read_jsonl(r.artifact_dir + "/profile_export.jsonl");
  EXPECT_GE(records.size(), 10u);
  EXPECT_LT(records.size(), 2000u) << "stopped before the request count";
}

}  // namespace
}  // namespace servebench::itest
