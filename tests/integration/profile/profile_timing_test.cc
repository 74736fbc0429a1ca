// servebench profile's timing against servebench-mock: TTFT against the mock's ground truth and
// ITL against the injected latency at concurrency 64, a constant arrival rate, and request
// cancellation after its delay. Tolerances are a millisecond or less, so this binary runs
// RUN_SERIAL: other tests sharing the cores meanwhile add their scheduling delay.
#include <algorithm>
#include <map>

#include "integration/profile/harness.h"
#include "load/worker.h"

namespace servebench::itest {
namespace {

constexpr auto& args = simple_mock_args;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Per profiled request, in ms, the client's records against the mock's ground truth (paired by
// X-Request-ID; both processes map the one steady clock to wall time):
//   send: request handed to the transport -> request written (the client's own send cost);
//   late: the mock's first-token write -> when the client says the first token arrived;
//   mock: the mock's own TTFT (first-token write minus arrival), which the client cannot change.
struct TtftParts {
  std::vector<double> send, late, mock;
};

TtftParts ttft_parts(const RunResult& r, const std::string& gt_path) {
  std::map<std::string, Json> truth;
  for (auto& g : read_jsonl(gt_path)) truth[g["x_request_id"].get<std::string>()] = g;
  TtftParts p;
  for (const auto& rec : r.records()) {
    const Json& m = rec["metadata"];
    if (m["benchmark_phase"] != "profiling") continue;
    const auto it = truth.find(m["x_request_id"].get<std::string>());
    if (it == truth.end()) continue;
    const Json& g = it->second;
    const int64_t received = g["received_steady_ns"].get<int64_t>();
    const int64_t first = g["first_token_steady_ns"].get<int64_t>();
    const int64_t mock_first_wall = first + g["received_wall_ns"].get<int64_t>() - received;
    const int64_t start = m["request_start_ns"].get<int64_t>();
    const double ttft_ms = rec["metrics"]["time_to_first_token"]["value"].get<double>();
    p.send.push_back((rec["servebench"]["request_sent_ns"].get<int64_t>() - start) / 1e6);
    p.late.push_back(ttft_ms - (mock_first_wall - start) / 1e6);
    p.mock.push_back((first - received) / 1e6);
  }
  return p;
}

TEST(ProfileTiming, TimingMatchesInjectedLatenciesAtConcurrency64) {
  const std::string dir = make_temp_dir("timing");
  // Client and mock run SCHED_FIFO where permitted; on a 2-core machine without it the mock reads
  // requests 0.5-1 ms late and, under load, fires timers up to 5 ms late (measured): not the
  // client's doing, so the assertions below measure the client's own parts.
  Server mock;
  const std::string gt = dir + "/gt.jsonl";
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "40", "--itl-ms", "8", "--ground-truth", gt},
                              /*realtime=*/true));
  auto r = run_profile(dir,
                       args({"-u", mock.url(), "--streaming", "--concurrency", "64",
                             "--request-count", "384", "--osl", "16", "--extra-inputs",
                             "ignore_eos:true", "--warmup-request-count", "64"}),
                       60, 0, /*realtime=*/true);
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto s = r.summary();
  EXPECT_EQ(metric_avg(s, "request_count"), 384);
  // The client's TTFT is held against what the mock did, request by request. "p50 within 2 ms of
  // the injected 40" failed in CI at 42.06 ms, where the mock's lateness above added to it.
  const TtftParts p = ttft_parts(r, gt);
  ASSERT_EQ(p.late.size(), 384u);
  // Idle 2-core machine: send ~0.005 ms, late ~0.1-0.2 ms at the median (0.5 ms under 6 busy
  // loops); the mock never writes early. -0.1 ms allows for the two processes' wall anchors.
  EXPECT_LT(median(p.send), 0.1);
  EXPECT_LT(median(p.late), 1.0);
  EXPECT_GT(*std::min_element(p.late.begin(), p.late.end()), -0.1);
  EXPECT_GE(*std::min_element(p.mock.begin(), p.mock.end()), 40.0 - 1e-6);
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
