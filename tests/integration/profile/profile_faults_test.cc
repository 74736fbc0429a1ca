// servebench profile under faults and stop conditions: every fault kind recorded as its kind,
// duration + grace, Ctrl-C, HTTP/2 through nghttpx.
#include <algorithm>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

constexpr auto& args = simple_mock_args;

struct FaultCase {
  const char* mock_kind;
  const char* error_type;
  int http_code;  // 0 = none expected
};

class FaultKinds : public ::testing::TestWithParam<FaultCase> {};

TEST_P(FaultKinds, EveryFailureIsARecordOfItsKind) {
  const FaultCase fc = GetParam();
  const std::string dir = make_temp_dir(std::string("fault-") + fc.mock_kind);
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--error-rate", "100", "--error-kind", fc.mock_kind, "--ttft-ms", "5",
                               "--itl-ms", "1", "--stall-timeout-ms", "20000"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "6",
                                  "--osl", "8", "--request-timeout-seconds", "0.5"}), 30);
  EXPECT_EQ(r.exit_code, 3) << "every request failed: " << r.stderr_text;
  ASSERT_FALSE(r.artifact_dir.empty());
  auto recs = r.records();
  ASSERT_EQ(recs.size(), 6u);
  for (const auto& rec : recs) {
    ASSERT_FALSE(rec["error"].is_null());
    EXPECT_EQ(rec["error"]["type"], fc.error_type) << rec["error"].dump();
    if (fc.http_code) {
      EXPECT_EQ(rec["error"]["code"], fc.http_code);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Mock, FaultKinds,
                         ::testing::Values(FaultCase{"http500", "http_status", 500},
                                           FaultCase{"http429", "http_status", 429},
                                           FaultCase{"reset", "stream_reset", 0},
                                           FaultCase{"stall", "timeout", 0},
                                           FaultCase{"malformed", "malformed_sse", 0},
                                           FaultCase{"error-event", "server_error_event", 0}),
                         [](const auto& info) {
                           std::string n = info.param.mock_kind;
                           n.erase(std::remove(n.begin(), n.end(), '-'), n.end());
                           return n;
                         });

TEST(ProfileStop, DurationThenGraceCancelsWhatIsStillInFlight) {
  const std::string dir = make_temp_dir("grace");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--itl-ms", "10"}));
  // Requests take ~290 ms (30 tokens, 10 ms apart): the fourth round runs from ~0.87 s to
  // ~1.16 s, so at 1 s + 0.05 s grace each of the 4 slots still has one in flight; those are
  // cancelled, kept in the JSONL, and counted neither as requests nor as errors.
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--benchmark-duration",
                                  "1", "--benchmark-grace-period", "0.05", "--osl", "30", "--extra-inputs",
                                  "ignore_eos:true"}), 30);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_LT(r.wall_s, 1.2 + 2.0);
  auto recs = r.records();
  int cancelled = 0, ok = 0;
  int64_t first_start = INT64_MAX, last_start = 0;
  for (const auto& rec : recs) {
    const int64_t start = rec["metadata"]["request_start_ns"].get<int64_t>();
    first_start = std::min(first_start, start);
    last_start = std::max(last_start, start);
    if (rec["metadata"]["was_cancelled"].get<bool>()) {
      ++cancelled;
      EXPECT_EQ(rec["error"]["type"], "cancelled");
    } else {
      EXPECT_TRUE(rec["error"].is_null()) << rec["error"].dump();
      ++ok;
    }
  }
  EXPECT_GE(cancelled, 3);
  EXPECT_LE(cancelled, 4);
  EXPECT_LT(last_start - first_start, 1'000'000'000) << "nothing is issued after the duration";
  auto s = r.summary();
  EXPECT_EQ(metric_avg(s, "request_count"), ok);
  EXPECT_EQ(s["servebench"]["cancelled_request_count"].get<int>(), cancelled);
  EXPECT_EQ(s.value("error_request_count", Json{{"avg", 0}})["avg"].get<double>(), 0);
}

TEST(ProfileStop, LongGraceLetsInFlightRequestsFinish) {
  const std::string dir = make_temp_dir("grace-long");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--itl-ms", "10"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--benchmark-duration",
                                  "1", "--benchmark-grace-period", "5", "--osl", "30", "--extra-inputs",
                                  "ignore_eos:true"}), 30);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_LT(r.wall_s, 1.5 + 2.0) << "the run ends when the last request does, not after the grace";
  for (const auto& rec : r.records()) EXPECT_FALSE(rec["metadata"]["was_cancelled"].get<bool>());
  EXPECT_GE(metric_avg(r.summary(), "request_count"), 12);
}

TEST(ProfileStop, CtrlCWritesResultsMarkedInterrupted) {
  const std::string dir = make_temp_dir("sigint");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--itl-ms", "10"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--benchmark-duration",
                                  "60", "--osl", "20", "--extra-inputs", "ignore_eos:true"}),
                       30, /*sigint_after_s=*/1.5);
  EXPECT_EQ(r.exit_code, 130) << r.stderr_text;  // a cancelled run is never a success
  EXPECT_LT(r.wall_s, 1.5 + 2.0 + 1.5) << "drains briefly, then stops";
  ASSERT_FALSE(r.artifact_dir.empty());
  auto s = r.summary();
  EXPECT_TRUE(s["was_cancelled"].get<bool>()) << "the summary says the run was interrupted";
  EXPECT_GE(metric_avg(s, "request_count"), 8);
  EXPECT_NE(r.stderr_text.find("interrupted"), std::string::npos);
}

// HTTP/2 over TLS (ALPN h2) through nghttpx in front of the mock (HTTP/1.1 behind it). The
// cleartext prior-knowledge variant is not tested: libcurl 7.88.1 (Debian 12) fails every reused
// h2c connection with "Error in the HTTP2 framing layer" (curl/curl#10634, fixed in 8.0.0).
TEST(ProfileHttp2, MultiplexedRunThroughAnHttp2Proxy) {
  if (access("/usr/sbin/nghttpx", X_OK) != 0) GTEST_SKIP() << "nghttpx (nghttp2-proxy) is not installed";
  const std::string dir = make_temp_dir("h2");
  ASSERT_EQ(std::system(("openssl req -x509 -newkey rsa:2048 -nodes -keyout " + dir + "/key.pem -out " + dir +
                         "/cert.pem -days 1 -subj /CN=127.0.0.1 >/dev/null 2>&1").c_str()),
            0);
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
  int front = 0;
  Server proxy;
  for (int attempt = 0; attempt < 5 && front == 0; ++attempt) {
    const int port = 20000 + (getpid() * 7 + attempt * 131) % 20000;
    pid_t pid = spawn({"/usr/sbin/nghttpx", "-f127.0.0.1," + std::to_string(port),
                       "-b127.0.0.1," + std::to_string(mock.port()), "--workers=1", "--conf=/dev/null",
                       "--errorlog-file=" + dir + "/nghttpx.log", "--accesslog-file=" + dir + "/access.log",
                       dir + "/key.pem", dir + "/cert.pem"}, -1, -1);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (waitpid(pid, nullptr, WNOHANG) == 0) {
      proxy.adopt(pid, port);
      front = port;
    }
  }
  ASSERT_GT(front, 0) << "nghttpx did not start: " << read_file(dir + "/nghttpx.log");
  auto r = run_profile(dir, args({"-u", "https://127.0.0.1:" + std::to_string(front), "--insecure", "--streaming",
                                  "--http-version", "2", "--concurrency", "16", "--request-count", "64",
                                  "--osl", "8"}), 60);
  proxy.stop();
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(metric_avg(r.summary(), "request_count"), 64);
  EXPECT_EQ(read_jsonl(dir + "/rec.jsonl").size(), 64u);
  // nghttpx logs the client-side protocol of every request (the benchmark's POSTs; the
  // server-metrics scrapes are GETs).
  const std::string access = read_file(dir + "/access.log");
  int h2 = 0;
  for (size_t p = access.find("POST /v1/chat/completions HTTP/2"); p != std::string::npos;
       p = access.find("POST /v1/chat/completions HTTP/2", p + 1))
    ++h2;
  EXPECT_EQ(h2, 64) << access.substr(0, 400);
  // Multiplexed: far fewer connections than requests.
  int reused = 0;
  for (const auto& rec : r.records()) reused += rec["metrics"]["http_req_connection_reused"]["value"].get<double>() > 0;
  EXPECT_GE(reused, 64 - 16);
}

}  // namespace
}  // namespace servebench::itest
