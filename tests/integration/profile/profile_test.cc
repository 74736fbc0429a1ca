// servebench profile end to end: counts, concurrency limit, warm-up, several URLs, an unreachable server, usage errors.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

constexpr auto& args = simple_mock_args;

TEST(Profile, UsageErrorsExitTwoWithOneLineWithinASecond) {
  const std::string dir = make_temp_dir("usage");
  const std::vector<std::vector<std::string>> bad = {
      {"--request-rate", "5", "--arrival-smoothness", "2"},
      {"--benchmark-grace-period", "3"},
      {"--concurrency", "zero"},
      {"--goodput", "not_a_metric:5"},
      {"--endpoint-type", "teleport"},
      {"--tokenizer", "/nonexistent/tokenizer.json"},
      {"--bogus-flag"},
  };
  for (const auto& b : bad) {
    auto a = args({"-u", "127.0.0.1:9"});
    a.insert(a.end(), b.begin(), b.end());
    auto r = run_profile(dir, a, 10);
    EXPECT_EQ(r.exit_code, 2) << b[0] << ": " << r.stderr_text;
    EXPECT_LT(r.wall_s, 1.0) << b[0];
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_TRUE(r.artifact_dir.empty()) << "nothing ran, nothing written";
  }
}

TEST(Profile, CountsExactAndConcurrencyNeverExceedsTheLimit) {
  const std::string dir = make_temp_dir("counts");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "15", "--itl-ms", "2", "--record-requests", dir + "/rec.jsonl",
                               "--ground-truth", dir + "/gt.jsonl"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "5", "--request-count", "73",
                                  "--osl", "8", "--random-seed", "3"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto s = r.summary();
  EXPECT_EQ(metric_avg(s, "request_count"), 73);
  EXPECT_EQ(r.records().size(), 73u);
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 73u);
  // Server-side intervals [received, last write] never overlap more than 5 deep.
  std::vector<std::pair<int64_t, int>> edges;
  for (const auto& g : read_jsonl(dir + "/gt.jsonl")) {
    int64_t end = g["received_steady_ns"].get<int64_t>();
    for (const auto& c : g["chunks"]) end = std::max(end, c["steady_ns"].get<int64_t>());
    edges.push_back({g["received_steady_ns"].get<int64_t>(), +1});
    edges.push_back({end, -1});
  }
  std::sort(edges.begin(), edges.end());  // at equal times the end (-1) sorts first
  int depth = 0, peak = 0;
  for (const auto& e : edges) peak = std::max(peak, depth += e.second);
  EXPECT_LE(peak, 5);
  EXPECT_EQ(peak, 5) << "the limit should be reached, not just respected";
}

TEST(Profile, WarmupIsSentButExcludedFromTheMetrics) {
  const std::string dir = make_temp_dir("warmup");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "20",
                                  "--warmup-request-count", "7"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(metric_avg(r.summary(), "request_count"), 20);
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 27u);
  int profiling = 0, warmup = 0;
  for (const auto& rec : r.records()) {
    const auto phase = rec["metadata"]["benchmark_phase"].get<std::string>();
    (phase == "warmup" ? warmup : profiling)++;
  }
  EXPECT_EQ(profiling, 20);
  EXPECT_TRUE(warmup == 0 || warmup == 7) << "warm-up records, if exported, are all marked";
}

TEST(Profile, SeveralUrlsAreBalancedRoundRobin) {
  const std::string dir = make_temp_dir("urls");
  Server a, b;
  ASSERT_TRUE(a.start_mock({"--record-requests", dir + "/a.jsonl"}));
  ASSERT_TRUE(b.start_mock({"--record-requests", dir + "/b.jsonl"}));
  auto r = run_profile(dir, args({"-u", a.url(), "-u", b.url(), "--concurrency", "4", "--request-count", "40"}));
  a.stop();
  b.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(read_jsonl(dir + "/a.jsonl").size(), 20u);
  EXPECT_EQ(read_jsonl(dir + "/b.jsonl").size(), 20u);
  std::map<int, int> by_url;
  for (const auto& rec : r.records()) by_url[rec["metadata"]["url_index"].get<int>()]++;
  EXPECT_EQ(by_url[0], 20);
  EXPECT_EQ(by_url[1], 20);
}

int unused_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);  // nothing listens there any more
  return ntohs(addr.sin_port);
}

TEST(Profile, UnreachableServerGivesConnectErrorsExitThreeAndArtifacts) {
  const std::string dir = make_temp_dir("unreachable");
  auto r = run_profile(dir, args({"-u", "127.0.0.1:" + std::to_string(unused_port()), "--concurrency", "2",
                                  "--request-count", "6"}), 30);
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  ASSERT_FALSE(r.artifact_dir.empty());
  auto recs = r.records();
  ASSERT_EQ(recs.size(), 6u);
  for (const auto& rec : recs) EXPECT_EQ(rec["error"]["type"], "connect") << rec.dump();
  EXPECT_EQ(metric_avg(r.summary(), "error_request_count"), 6);
}

}  // namespace
}  // namespace servebench::itest
