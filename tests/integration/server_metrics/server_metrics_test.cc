// servebench profile against servebench-mock with server metrics on (the default): the mock's
// /metrics counters move with its load, and their deltas over the run must equal what the run
// itself sent and received; the mock's ground truth gives the tokens per request.
#include <cmath>
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

double series_stat(const Json& doc, const std::string& metric, const std::string& stat) {
  double sum = 0;
  for (const auto& s : doc.at("metrics").at(metric).at("series")) sum += s.at("stats").at(stat).get<double>();
  return sum;
}

TEST(ServerMetrics, CounterDeltasEqualTheRunsRequestsAndTokens) {
  const std::string dir = make_temp_dir("server-metrics");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ground-truth", dir + "/gt.jsonl", "--ttft-ms", "5", "--itl-ms", "1",
                               "--max-concurrency", "4"}));
  // A warm scrape history first: the counters do not start at 0 (the baseline must be subtracted).
  auto warm = run_profile(dir + "/w", {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(),
                                       "--streaming", "--request-count", "5", "--no-server-metrics"});
  ASSERT_EQ(warm.exit_code, 0) << warm.stderr_text;
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "--isl", "32", "--osl", "12",
                             "-u", mock.url(), "--streaming", "--request-count", "40", "--concurrency", "8",
                             "--server-metrics-interval", "0.05", "--server-metrics-formats", "json",
                             "csv", "jsonl", "--slice-duration", "0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json doc = Json::parse(read_file(r.artifact_dir + "/server_metrics_export.json"));
  // What the mock says it did for this run (its ground truth after the 5 warm-up lines), against
  // the counter deltas.
  mock.stop();
  double prompt = 0, completion = 0;
  int requests = 0;
  const auto truth = read_jsonl(dir + "/gt.jsonl");
  ASSERT_EQ(truth.size(), 45u);
  for (size_t i = 5; i < truth.size(); ++i) {
    const auto& g = truth[i];
    prompt += g["prompt_tokens"].get<double>();
    completion += g["completion_tokens"].get<double>();
    ++requests;
  }
  ASSERT_EQ(requests, 40);
  EXPECT_EQ(series_stat(doc, "vllm:request_success", "total"), 40);
  EXPECT_EQ(series_stat(doc, "vllm:prompt_tokens", "total"), prompt);
  EXPECT_EQ(series_stat(doc, "vllm:generation_tokens", "total"), completion);
  EXPECT_GT(series_stat(doc, "vllm:generation_tokens", "rate"), 0);
  EXPECT_EQ(series_stat(doc, "vllm:time_to_first_token_seconds", "count"), 40);
  EXPECT_EQ(series_stat(doc, "vllm:e2e_request_latency_seconds", "count"), 40);
  // The load drove the gauges: up to 4 running (the mock's limit), the rest waiting.
  EXPECT_LE(series_stat(doc, "vllm:num_requests_running", "max"), 4);
  EXPECT_GT(series_stat(doc, "vllm:num_requests_running", "max"), 0);
  EXPECT_GT(series_stat(doc, "vllm:num_requests_waiting", "max"), 0);
  EXPECT_GT(series_stat(doc, "vllm:kv_cache_usage_perc", "max"), 0);
  EXPECT_LE(series_stat(doc, "vllm:kv_cache_usage_perc", "max"), 1);
  EXPECT_FALSE(doc["metrics"]["vllm:num_requests_running"]["series"][0]["timeslices"].empty());
  // Reconciliation: same request count on both sides; the server's TTFT avg is the mock's
  // (receipt to first token), the client's adds loopback and client time: small and >= 0.
  const auto& rows = doc.at("reconciliation").at("rows");
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_EQ(row["server_count"].get<double>(), 40);
    EXPECT_EQ(row["client_count"].get<int64_t>(), 40);
    EXPECT_GT(row["difference_avg_ms"].get<double>(), -0.5) << row.dump();
    EXPECT_LT(row["difference_avg_ms"].get<double>(), 50) << row.dump();
  }
  // Raw snapshots: one line per scrape, endpoint and latency on each.
  const auto snaps = read_jsonl(r.artifact_dir + "/server_metrics_export.jsonl");
  EXPECT_GE(snaps.size(), 3u);
  for (const auto& s : snaps) {
    EXPECT_EQ(s["endpoint_url"], mock.url() + "/metrics");
    EXPECT_GE(s["endpoint_latency_ns"].get<int64_t>(), 0);
  }
  EXPECT_NE(read_file(r.artifact_dir + "/server_metrics_export.csv").find("vllm:generation_tokens"),
            std::string::npos);
}

TEST(ServerMetrics, UnreachableEndpointIsOneWarningAndTheRunGoesOn) {
  const std::string dir = make_temp_dir("server-metrics-bad");
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--streaming",
                             "--request-count", "6", "--server-metrics", "127.0.0.1:1"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  size_t warnings = 0;
  for (size_t p = 0; (p = r.stderr_text.find("http://127.0.0.1:1/metrics skipped", p)) != std::string::npos; ++p)
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.stderr_text;
  const Json doc = Json::parse(read_file(r.artifact_dir + "/server_metrics_export.json"));
  EXPECT_EQ(doc["summary"]["endpoints_successful"].size(), 1u);
  EXPECT_EQ(doc["summary"]["endpoints_configured"].size(), 2u);
  EXPECT_EQ(series_stat(doc, "vllm:request_success", "total"), 6);
}

TEST(ServerMetrics, OffWritesNoServerMetricsFiles) {
  const std::string dir = make_temp_dir("server-metrics-off");
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(), "--streaming",
                             "--request-count", "3", "--no-server-metrics"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_FALSE(std::filesystem::exists(r.artifact_dir + "/server_metrics_export.json"));
  EXPECT_TRUE(std::filesystem::exists(r.artifact_dir + "/profile_export_aiperf.json"));
}

TEST(ServerMetrics, BadFormatIsAUsageError) {
  const std::string dir = make_temp_dir("server-metrics-usage");
  auto r = run_profile(dir, {"-m", "m", "--server-metrics-formats", "xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--server-metrics-formats 'xml' is invalid"), std::string::npos) << r.stderr_text;
  r = run_profile(dir, {"-m", "m", "--server-metrics-interval", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
}

}  // namespace
}  // namespace servebench::itest
