// Metrics end to end: `servebench profile` against servebench-mock with injected TTFT/ITL,
// reasoning tokens, multi-token chunks and faults; checks that each injected quantity lands in
// the right metric, that --goodput counts the right requests, that --fail-on sets the exit
// code, and that secrets never reach an artifact. Uses the profile harness (fork/exec, ephemeral
// loopback ports). Tolerances allow for scheduling noise on a loaded machine: lower bounds are
// tight (the mock never sends early), upper bounds generous.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

std::vector<std::string> base(const Server& mock, std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m",     "mock-model", "--tokenizer", "simple", "--isl", "32",
                                "-u",     mock.url(),   "--streaming", "--osl",  "16",
                                "--extra-inputs", "ignore_eos:true"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// Removes a test's temp dir when the test ends (pass or fail).
struct TempDir {
  explicit TempDir(const std::string& tag) : path(make_temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string path;
};

double stat(const Json& s, const std::string& tag, const std::string& st = "avg") {
  EXPECT_TRUE(s.contains(tag)) << tag;
  if (!s.contains(tag) || !s[tag].contains(st) || s[tag][st].is_null()) return -1;
  return s[tag][st].get<double>();
}

TEST(MetricsE2E, InjectedTtftAndItlLandInTheRightMetrics) {
  TempDir dir_guard("m-timing");
  const std::string dir = dir_guard.path;
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "40", "--itl-ms", "8"}));
  auto r = run_profile(dir, base(mock, {"--concurrency", "4", "--request-count", "40"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json s = r.summary();
  EXPECT_EQ(stat(s, "request_count"), 40);
  EXPECT_EQ(stat(s, "output_sequence_length", "min"), 16);
  EXPECT_EQ(stat(s, "output_sequence_length", "max"), 16);
  EXPECT_GE(stat(s, "time_to_first_token", "min"), 40);
  EXPECT_LT(stat(s, "time_to_first_token", "p50"), 55);
  // 16 tokens, one per event, 8 ms apart: latency = TTFT + 15 × 8, ITL = 8.
  EXPECT_GE(stat(s, "inter_token_latency", "p50"), 7.5);
  EXPECT_LT(stat(s, "inter_token_latency", "p50"), 10);
  EXPECT_GE(stat(s, "request_latency", "min"), 160);
  EXPECT_LT(stat(s, "request_latency", "p50"), 190);
  EXPECT_NEAR(stat(s, "inter_chunk_latency", "p50"), 8, 2);
  EXPECT_NEAR(stat(s, "decode_duration", "p50"), 120, 20);
  EXPECT_NEAR(stat(s, "output_token_throughput_per_user", "p50"), 125, 25);
  // TTFT and TTFO coincide without reasoning.
  EXPECT_DOUBLE_EQ(stat(s, "time_to_first_output_token", "avg"), stat(s, "time_to_first_token", "avg"));
  EXPECT_FALSE(s.contains("reasoning_token_count"));
  // Schedule-anchored TTFT is never below TTFT; concurrency peaks at the limit.
  EXPECT_GE(s["servebench"]["time_to_first_token_from_intended"]["min"].get<double>(),
            stat(s, "time_to_first_token", "min") - 1e-9);
  EXPECT_EQ(s["servebench"]["peak_concurrency"], 4);
  // Per-record values agree with the summary.
  size_t n = 0;
  for (const auto& rec : r.records()) {
    if (rec["metadata"]["benchmark_phase"] != "profiling") continue;
    ++n;
    EXPECT_GE(rec["metrics"]["time_to_first_token"]["value"].get<double>(), 40);
    EXPECT_EQ(rec["metrics"]["time_to_first_token"]["unit"], "ms");
    EXPECT_EQ(rec["metrics"]["inter_chunk_latency"]["value"].size(), 15u);
  }
  EXPECT_EQ(n, 40u);
}

TEST(MetricsE2E, ReasoningTokensSeparateTtftFromTtfo) {
  TempDir dir_guard("m-reason");
  const std::string dir = dir_guard.path;
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "30", "--itl-ms", "10", "--reasoning-tokens", "4"}));
  auto r = run_profile(dir, base(mock, {"--concurrency", "2", "--request-count", "10"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json s = r.summary();
  // First event is reasoning at 30 ms; the first output token follows 4 reasoning tokens.
  EXPECT_GE(stat(s, "time_to_first_token", "min"), 30);
  EXPECT_LT(stat(s, "time_to_first_token", "p50"), 45);
  EXPECT_GE(stat(s, "time_to_first_output_token", "min"), 70);
  EXPECT_LT(stat(s, "time_to_first_output_token", "p50"), 90);
  EXPECT_EQ(stat(s, "reasoning_token_count", "avg"), 4);
  EXPECT_EQ(stat(s, "output_sequence_length", "avg"), 16);  // reasoning counts toward OSL
  EXPECT_EQ(stat(s, "output_token_count", "avg"), 12);
}

TEST(MetricsE2E, MultiTokenChunksGiveAIPerfItlAndPerTokenItl) {
  TempDir dir_guard("m-chunks");
  const std::string dir = dir_guard.path;
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "12", "--tokens-per-chunk", "4"}));
  auto r = run_profile(dir, base(mock, {"--concurrency", "2", "--request-count", "10"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json s = r.summary();
  // 16 tokens in 4 events 12 ms apart: decode = 36 ms; AIPerf ITL = 36 / 15 = 2.4 ms;
  // per token (ours) = 36 / 12 = 3 ms; inter-chunk = 12 ms.
  EXPECT_NEAR(stat(s, "inter_token_latency", "p50"), 2.4, 0.5);
  EXPECT_NEAR(stat(s, "inter_chunk_latency", "p50"), 12, 2.5);
  const Json& pt = s["servebench"]["per_token_inter_token_latency"];
  EXPECT_NEAR(pt["p50"].get<double>(), 3.0, 0.7);
  EXPECT_EQ(pt["count"].get<int64_t>(), 10 * 12);  // 12 tokens after each first chunk
  EXPECT_GT(pt["avg"].get<double>(), stat(s, "inter_token_latency", "avg"));
}

TEST(MetricsE2E, ErrorsGiveAdjustedDistributionsAndCounts) {
  TempDir dir_guard("m-errors");
  const std::string dir = dir_guard.path;
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1", "--error-rate", "30",
                               "--error-kind", "http500", "--seed", "11"}));
  auto r = run_profile(dir, base(mock, {"--concurrency", "4", "--request-count", "60"}));
  ASSERT_TRUE(r.exit_code == 0) << r.exit_code << " " << r.stderr_text;
  const Json s = r.summary();
  const double ok = stat(s, "request_count");
  const double err = stat(s, "error_request_count");
  EXPECT_EQ(ok + err, 60);
  EXPECT_GT(err, 5);
  EXPECT_GT(ok, 20);
  EXPECT_DOUBLE_EQ(stat(s, "request_error_rate"), 100 * err / 60);
  ASSERT_TRUE(s.contains("adj_request_latency"));
  EXPECT_TRUE(s["adj_request_latency"]["avg"].is_null());  // +inf written as null
  EXPECT_EQ(s["adj_request_latency"]["count"].get<double>(), 60);
  EXPECT_TRUE(s["adj_request_latency"]["p99"].is_null());
  EXPECT_FALSE(s["adj_request_latency"].contains("std"));
  EXPECT_EQ(s["request_latency"]["count"].get<double>(), ok);  // successes only
  ASSERT_FALSE(s["error_summary"].empty());
  EXPECT_EQ(s["error_summary"][0]["error_details"]["code"], 500);
  EXPECT_EQ(s["servebench"]["errors_by_kind"]["http_status"].get<double>(), err);
  size_t failed_lines = 0;
  for (const auto& rec : r.records()) {
    if (!rec["error"].is_null()) {
      ++failed_lines;
      EXPECT_FALSE(rec["metrics"].contains("request_latency"));
    }
  }
  EXPECT_EQ(failed_lines, static_cast<size_t>(err));
}

TEST(MetricsE2E, GoodputCountsTheRequestsMeetingTheSlo) {
  TempDir dir_guard("m-goodput");
  const std::string dir = dir_guard.path;
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "1", "--jitter-cv", "0.6",
                               "--seed", "5"}));
  auto r = run_profile(dir, base(mock, {"--concurrency", "4", "--request-count", "60",
                                        "--goodput", "time_to_first_token:20"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json s = r.summary();
  size_t expected = 0;
  for (const auto& rec : r.records()) {
    if (rec["metadata"]["benchmark_phase"] != "profiling" || !rec["error"].is_null()) continue;
    if (rec["metrics"]["time_to_first_token"]["value"].get<double>() <= 20) ++expected;
  }
  EXPECT_GT(expected, 0u);
  EXPECT_LT(expected, 60u);
  EXPECT_EQ(stat(s, "good_request_count"), static_cast<double>(expected));
  EXPECT_NEAR(stat(s, "goodput"), expected / stat(s, "benchmark_duration"), 1e-6);
  EXPECT_NEAR(stat(s, "good_request_fraction"), expected / 60.0, 1e-12);
}

TEST(MetricsE2E, FailOnSetsExitCodeAndArtifactsAreWrittenEitherWay) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "10", "--itl-ms", "1"}));
  TempDir fail_dir_guard("m-failon");
  const std::string fail_dir = fail_dir_guard.path;
  auto fail = run_profile(fail_dir, base(mock, {"--concurrency", "2", "--request-count", "8",
                                                "--fail-on", "time_to_first_token.p99>1"}));
  EXPECT_EQ(fail.exit_code, 1) << fail.stderr_text;
  ASSERT_FALSE(fail.artifact_dir.empty());
  EXPECT_TRUE(fail.summary()["servebench"]["fail_on"]["failed"].get<bool>());
  TempDir pass_dir_guard("m-passon");
  const std::string pass_dir = pass_dir_guard.path;
  auto pass = run_profile(pass_dir, base(mock, {"--concurrency", "2", "--request-count", "8",
                                                "--fail-on", "time_to_first_token.p99>5000 request_error_rate>1"}));
  EXPECT_EQ(pass.exit_code, 0) << pass.stderr_text;
  EXPECT_FALSE(pass.summary()["servebench"]["fail_on"]["failed"].get<bool>());
}

TEST(MetricsE2E, SecretsNeverAppearInAnyArtifact) {
  TempDir dir_guard("m-secrets");
  const std::string dir = dir_guard.path;
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--itl-ms", "1", "--error-rate", "20",
                               "--error-kind", "http500"}));
  const std::string key = "sk-topsecretkey0123456789abcdef";
  auto r = run_profile(dir, base(mock, {"--concurrency", "2", "--request-count", "10",
                                        "--api-key", key, "-H", "X-Api-Key: hunter2hunter2",
                                        "--export-level", "raw", "--slice-duration", "0.05"}));
  ASSERT_TRUE(r.exit_code == 0) << r.stderr_text;
  ASSERT_FALSE(r.artifact_dir.empty());
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(r.artifact_root)) {
    if (!e.is_regular_file()) continue;
    ++files;
    const std::string text = read_file(e.path().string());
    EXPECT_EQ(text.find(key), std::string::npos) << e.path();
    EXPECT_EQ(text.find("topsecretkey"), std::string::npos) << e.path();
    EXPECT_EQ(text.find("hunter2"), std::string::npos) << e.path();
  }
  EXPECT_GE(files, 6u);  // json, csv, jsonl, raw jsonl, timeslices json+csv, console
  EXPECT_TRUE(fs::exists(r.artifact_dir + "/profile_export_raw.jsonl"));
  EXPECT_TRUE(fs::exists(r.artifact_dir + "/profile_export_aiperf_timeslices.json"));
  EXPECT_EQ(r.stderr_text.find("topsecretkey"), std::string::npos);
}

}  // namespace
}  // namespace servebench::itest
