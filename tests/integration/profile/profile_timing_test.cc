// servebench profile's timing against servebench-mock: TTFT/ITL against the injected latencies at
// concurrency 64, a constant arrival rate, and request cancellation after its delay. Tolerances are a millisecond or two, so this binary
// runs RUN_SERIAL: other tests sharing the cores meanwhile add their scheduling delay to the p50.
#include <algorithm>

#include "integration/profile/harness.h"
#include "load/worker.h"

namespace servebench::itest {
namespace {

constexpr auto& args = simple_mock_args;

TEST(ProfileTiming, TimingMatchesInjectedLatenciesAtConcurrency64) {
  const std::string dir = make_temp_dir("timing");
  // Client and mock run SCHED_FIFO where permitted: on a shared 2-core machine at load 6 the
  // scheduler otherwise adds ~1-2 ms to the p50 (measured), which is the neighbours' doing.
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "40", "--itl-ms", "8"}, /*realtime=*/true));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "64", "--request-count", "384",
                                  "--osl", "16", "--extra-inputs", "ignore_eos:true", "--warmup-request-count", "64"}),
                       60, 0, /*realtime=*/true);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto s = r.summary();
  EXPECT_EQ(metric_avg(s, "request_count"), 384);
  // 2 ms: full suites on an idle 2-core machine gave 41.36 and 41.63 ms once each (alone: within
  // 1 ms); the old and the current client measure the same here.
  EXPECT_NEAR(metric_avg(s, "time_to_first_token", "p50"), 40.0, 2.0);
  EXPECT_NEAR(metric_avg(s, "inter_chunk_latency"), 8.0, 0.5);
  EXPECT_NEAR(metric_avg(s, "inter_token_latency"), 8.0, 0.5);
  EXPECT_NEAR(metric_avg(s, "output_sequence_length"), 16.0, 1e-9);
}

TEST(ProfileTiming, ConstantRateIsAchievedWithinTwoPercent) {
  const std::string dir = make_temp_dir("rate");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--request-rate", "100", "--arrival-pattern",
                                  "constant", "--request-count", "301", "--osl", "4"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::vector<int64_t> starts;
  for (const auto& rec : r.records()) starts.push_back(rec["metadata"]["request_start_ns"].get<int64_t>());
  ASSERT_EQ(starts.size(), 301u);
  std::sort(starts.begin(), starts.end());
  const double rate = 300.0 / ((starts.back() - starts.front()) / 1e9);
  EXPECT_NEAR(rate, 100.0, 2.0);
  // Intended times are exactly 10 ms apart.
  std::vector<int64_t> intended;
  for (const auto& rec : r.records()) intended.push_back(rec["metadata"]["intended_ns"].get<int64_t>());
  std::sort(intended.begin(), intended.end());
  for (size_t i = 1; i < intended.size(); ++i) ASSERT_NEAR(intended[i] - intended[i - 1], 10'000'000, 2) << i;
}

TEST(ProfileCancel, RateAndDelayCancelTheSeededShareAfterTheDelay) {
  const std::string dir = make_temp_dir("cancel");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--itl-ms", "10"}));
  const int n = 60;
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "8", "--request-count",
                                  std::to_string(n), "--osl", "30", "--extra-inputs", "ignore_eos:true",
                                  "--request-cancellation-rate", "30", "--request-cancellation-delay", "0.1",
                                  "--random-seed", "7"}), 60);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  int expected = 0;
  for (int i = 0; i < n; ++i) expected += load::should_cancel(7, record::Phase::kProfiling, i, 30) ? 1 : 0;
  ASSERT_GT(expected, 5);
  int cancelled = 0;
  for (const auto& rec : r.records()) {
    if (!rec["metadata"]["was_cancelled"].get<bool>()) continue;
    ++cancelled;
    const double after_ms = (rec["metadata"]["cancellation_time_ns"].get<int64_t>() -
                             rec["metadata"]["request_start_ns"].get<int64_t>()) / 1e6;
    EXPECT_NEAR(after_ms, 100.0, 10.0);
  }
  EXPECT_EQ(cancelled, expected);
}

}  // namespace
}  // namespace servebench::itest
