// servebench profile load modes: several workers, prefill concurrency, connection reuse
// strategies, concurrency ramp.
#include <algorithm>
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

constexpr auto& args = simple_mock_args;

// Peak overlap of server-side intervals [received, end_of(g)] from a ground-truth file.
template <class EndOf>
int peak_overlap(const std::string& gt_path, EndOf end_of) {
  std::vector<std::pair<int64_t, int>> edges;
  for (const auto& g : read_jsonl(gt_path)) {
    edges.push_back({g["received_steady_ns"].get<int64_t>(), +1});
    edges.push_back({end_of(g), -1});
  }
  std::sort(edges.begin(), edges.end());
  int depth = 0, peak = 0;
  for (const auto& e : edges) peak = std::max(peak, depth += e.second);
  return peak;
}

int64_t last_write(const Json& g) {
  int64_t end = g["received_steady_ns"].get<int64_t>();
  for (const auto& c : g["chunks"]) end = std::max(end, c["steady_ns"].get<int64_t>());
  return end;
}

TEST(ProfileWorkers, ClosedLoopAcrossThreeWorkersKeepsCountAndLimit) {
  const std::string dir = make_temp_dir("workers-closed");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "10", "--itl-ms", "2", "--ground-truth", dir + "/gt.jsonl"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--workers-max", "3", "--concurrency", "7",
                                  "--request-count", "101", "--osl", "6"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(metric_avg(r.summary(), "request_count"), 101);
  EXPECT_EQ(read_jsonl(dir + "/gt.jsonl").size(), 101u);
  const int peak = peak_overlap(dir + "/gt.jsonl", last_write);
  EXPECT_LE(peak, 7);
  EXPECT_GE(peak, 6);
  std::vector<int> per_worker(3);
  std::vector<int64_t> indices;
  for (const auto& rec : r.records()) {
    const std::string w = rec["metadata"]["worker_id"].get<std::string>();
    per_worker[w.back() - '0']++;
    indices.push_back(rec["metadata"]["session_num"].get<int64_t>());
  }
  for (int n : per_worker) EXPECT_GT(n, 15) << "every one of the 3 workers sends";
  std::sort(indices.begin(), indices.end());
  for (size_t i = 0; i < indices.size(); ++i) EXPECT_EQ(indices[i], static_cast<int64_t>(i)) << "indices unique";
}

TEST(ProfileWorkers, OpenLoopAcrossThreeWorkersKeepsThePlan) {
  const std::string dir = make_temp_dir("workers-open");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--workers-max", "3", "--request-rate", "200",
                                  "--arrival-pattern", "constant", "--request-count", "300", "--osl", "4"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::vector<int64_t> intended, starts;
  for (const auto& rec : r.records()) {
    intended.push_back(rec["metadata"]["intended_ns"].get<int64_t>());
    starts.push_back(rec["metadata"]["request_start_ns"].get<int64_t>());
  }
  ASSERT_EQ(intended.size(), 300u);
  std::sort(intended.begin(), intended.end());
  std::sort(starts.begin(), starts.end());
  for (size_t i = 1; i < intended.size(); ++i) ASSERT_NEAR(intended[i] - intended[i - 1], 5'000'000, 2);
  EXPECT_NEAR(299.0 / ((starts.back() - starts.front()) / 1e9), 200.0, 4.0);
}

TEST(ProfilePrefill, RequestsWaitingForTheirFirstTokenNeverExceedTheLimit) {
  const std::string dir = make_temp_dir("prefill");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "30", "--itl-ms", "5", "--ground-truth", dir + "/gt.jsonl"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "8", "--prefill-concurrency",
                                  "2", "--request-count", "40", "--osl", "20", "--extra-inputs", "ignore_eos:true"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(metric_avg(r.summary(), "request_count"), 40);
  // Server side: [received, first token written] overlaps at most 2 deep; whole requests reach
  // deeper than 2 (decode runs while new prefills start).
  const int prefill_peak = peak_overlap(dir + "/gt.jsonl", [](const Json& g) {
    return g["first_token_steady_ns"].get<int64_t>();
  });
  EXPECT_LE(prefill_peak, 2);
  EXPECT_GE(peak_overlap(dir + "/gt.jsonl", last_write), 4);
}

TEST(ProfileReuse, NeverOpensAConnectionPerRequestPooledReuses) {
  const std::string dir = make_temp_dir("reuse");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1"}));
  auto count_reused = [](const RunResult& r) {
    int reused = 0;
    for (const auto& rec : r.records())
      reused += rec["metrics"]["http_req_connection_reused"]["value"].get<double>() > 0 ? 1 : 0;
    return reused;
  };
  auto never = run_profile(dir + "", args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--request-count",
                                           "40", "--osl", "4", "--connection-reuse-strategy", "never"}));
  ASSERT_EQ(never.exit_code, 0) << never.stderr_text;
  EXPECT_EQ(count_reused(never), 0);
  const std::string dir2 = make_temp_dir("reuse-pooled");
  auto pooled = run_profile(dir2, args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--request-count", "40",
                                        "--osl", "4"}));
  ASSERT_EQ(pooled.exit_code, 0) << pooled.stderr_text;
  EXPECT_GE(count_reused(pooled), 36);
  const std::string dir3 = make_temp_dir("reuse-sticky");
  auto sticky = run_profile(dir3, args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--request-count",
                                        "40", "--osl", "4", "--connection-reuse-strategy", "sticky-user-sessions"}));
  ASSERT_EQ(sticky.exit_code, 0) << sticky.stderr_text;
  EXPECT_EQ(count_reused(sticky), 0) << "single-turn sessions: one connection each, closed at the end";
}

TEST(ProfileRamp, ConcurrencyRampsUpOneSlotAtATime) {
  const std::string dir = make_temp_dir("ramp");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "5", "--ground-truth", dir + "/gt.jsonl"}));
  // Limit 1 → 4 over 1.5 s: steps at 0, 0.5, 1.0, 1.5 s.
  auto r = run_profile(dir, args({"-u", mock.url(), "--streaming", "--concurrency", "4", "--concurrency-ramp-duration",
                                  "1.5", "--benchmark-duration", "2.5", "--osl", "10", "--extra-inputs",
                                  "ignore_eos:true"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto gts = read_jsonl(dir + "/gt.jsonl");
  ASSERT_FALSE(gts.empty());
  int64_t t0 = INT64_MAX;
  for (const auto& g : gts) t0 = std::min(t0, g["received_steady_ns"].get<int64_t>());
  // Peak depth inside each step window (with 20 ms of slack at the edges).
  auto peak_between = [&](double from_s, double to_s) {
    std::vector<std::pair<int64_t, int>> edges;
    for (const auto& g : gts) {
      const int64_t a = g["received_steady_ns"].get<int64_t>() - t0, b = last_write(g) - t0;
      const int64_t lo = static_cast<int64_t>(from_s * 1e9) + 20'000'000, hi = static_cast<int64_t>(to_s * 1e9) - 20'000'000;
      if (b < lo || a > hi) continue;
      edges.push_back({std::max(a, lo), +1});
      edges.push_back({std::min(b, hi), -1});
    }
    std::sort(edges.begin(), edges.end());
    int depth = 0, peak = 0;
    for (const auto& e : edges) peak = std::max(peak, depth += e.second);
    return peak;
  };
  EXPECT_EQ(peak_between(0.0, 0.5), 1);
  EXPECT_EQ(peak_between(0.5, 1.0), 2);
  EXPECT_EQ(peak_between(1.0, 1.5), 3);
  EXPECT_EQ(peak_between(1.5, 2.4), 4);
}

TEST(ProfileModels, SeveralModelsAreUsedRoundRobin) {
  const std::string dir = make_temp_dir("models");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"--model-names", "alpha,beta", "-m", "gamma", "--tokenizer", "simple", "--isl", "16",
                             "-u", mock.url(), "--concurrency", "3", "--request-count", "30"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::map<std::string, int> sent;
  for (const auto& rec : read_jsonl(dir + "/rec.jsonl")) sent[rec["model"].get<std::string>()]++;
  EXPECT_EQ(sent["alpha"], 10);
  EXPECT_EQ(sent["beta"], 10);
  EXPECT_EQ(sent["gamma"], 10);
  EXPECT_NE(r.artifact_dir.find("alpha-openai-chat"), std::string::npos) << r.artifact_dir;
}

}  // namespace
}  // namespace servebench::itest
