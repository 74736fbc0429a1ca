// AIPerf 0.13 parity end to end: `servebench profile` against servebench-mock asks for the usage
// chunk in every streamed body (as AIPerf 0.13 does) unless --extra-inputs sets stream_options,
// and the artifacts carry AIPerf 0.13's usage, HTTP, credit-latency and completion rows, its
// record metadata keys and its top-level is_complete.
#include <string>
#include <vector>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

struct TempDir {
  explicit TempDir(const std::string& tag) : path(make_temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string path;
};

std::vector<std::string> args(const Server& mock, std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "mock-model", "--tokenizer", "simple", "--isl", "32",
                                "-u", mock.url(), "--streaming", "--osl", "16",
                                "--concurrency", "2", "--request-count", "12",
                                "--warmup-request-count", "2"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

double stat(const Json& s, const std::string& tag, const std::string& st = "avg") {
  EXPECT_TRUE(s.contains(tag)) << tag;
  if (!s.contains(tag) || !s[tag].contains(st) || s[tag][st].is_null()) return -1;
  return s[tag][st].get<double>();
}

TEST(Aiperf013E2E, StreamedBodiesAskForUsageAndTheRowsFollow) {
  TempDir dir("a13");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  auto r = run_profile(dir.path, args(mock, {"--extra-inputs", "ignore_eos:true"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;

  const Json inputs = Json::parse(read_file(r.artifact_dir + "/inputs.json"));
  ASSERT_FALSE(inputs["data"].empty());
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["stream_options"]["include_usage"], true);

  const Json s = r.summary();
  EXPECT_EQ(s["is_complete"], true);
  EXPECT_EQ(stat(s, "completed_request_count"), 12);
  EXPECT_EQ(stat(s, "usage_completion_tokens", "min"), 16);
  EXPECT_EQ(stat(s, "usage_completion_tokens", "max"), 16);
  EXPECT_EQ(stat(s, "total_usage_completion_tokens"), 12 * 16);
  EXPECT_EQ(stat(s, "total_usage_total_tokens"),
            stat(s, "total_usage_prompt_tokens") + stat(s, "total_usage_completion_tokens"));
  EXPECT_EQ(stat(s, "usage_completion_tokens_diff_pct", "max"), 0);
  EXPECT_GE(stat(s, "usage_prompt_tokens_diff_pct", "min"), 0);
  EXPECT_GE(stat(s, "usage_discrepancy_count"), 0);
  // One send() per request on the native client; every request reaches a connection.
  EXPECT_EQ(stat(s, "http_req_chunks_sent", "avg"), 1);
  EXPECT_EQ(s["http_req_data_sent"]["unit"], "KB");
  EXPECT_GE(stat(s, "credit_to_start_latency", "min"), 0);
  EXPECT_EQ(stat(s, "credit_to_start_latency", "count"), 12);
  // Measured from the credit, never before the request started.
  EXPECT_GE(stat(s, "effective_latency", "min"), stat(s, "request_latency", "min") - 1e-6);

  // Time-weighted sweeps: at most 2 requests in flight (--concurrency 2), each holding its
  // 32 prompt tokens (the simple tokenizer's count) and then its 16 output tokens.
  EXPECT_GT(stat(s, "effective_concurrency"), 0.5);
  EXPECT_EQ(stat(s, "effective_concurrency", "max"), 2);
  EXPECT_LE(stat(s, "effective_decode_concurrency", "max"), 2);
  EXPECT_GT(stat(s, "active_decode_throughput"), 0);
  EXPECT_LE(stat(s, "tokens_in_flight", "max"), 2 * (32 + 16));
  EXPECT_GT(stat(s, "tokens_in_flight", "max"), 32);
  EXPECT_TRUE(s["effective_concurrency"]["p1"].is_null());

  const std::string csv = read_file(r.artifact_dir + "/profile_export_aiperf.csv");
  for (const char* row :
       {"\nUsage Prompt Diff % (%),", "\nHTTP Chunks Sent,", "\nHTTP Blocked (ms),",
        "\nCredit-to-Start Latency (ms),", "\nCompleted Requests (Success + Error),12",
        "\nEffective Concurrency,", "\nTokens In Flight (tokens),"}) {
    EXPECT_NE(csv.find(row), std::string::npos) << row;
  }

  size_t profiling = 0;
  for (const auto& rec : r.records()) {
    const auto& m = rec["metadata"];
    EXPECT_EQ(m["root_correlation_id"], m["x_correlation_id"]);
    EXPECT_EQ(m["agent_depth"], 0);
    EXPECT_EQ(m["context_overflow_skip"], false);
    EXPECT_EQ(m["record_processor_id"].get<std::string>().rfind("record_processor_", 0), 0u);
    EXPECT_EQ(m["phase_kind"], m["benchmark_phase"]);
    if (m["benchmark_phase"] != "profiling") {
      EXPECT_EQ(m["phase_index"], 0);
      EXPECT_TRUE(m["profiling_index"].is_null());
      continue;
    }
    ++profiling;
    EXPECT_EQ(m["phase_index"], 1);  // after the warm-up
    EXPECT_EQ(m["profiling_index"], 0);
    EXPECT_EQ(rec["metrics"]["usage_completion_tokens"]["value"], 16);
    EXPECT_EQ(rec["metrics"]["http_req_chunks_sent"]["value"], 1);
  }
  EXPECT_EQ(profiling, 12u);
}

TEST(Aiperf013E2E, ExtraInputsStreamOptionsTurnTheUsageChunkOff) {
  TempDir dir("a13off");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  auto r = run_profile(dir.path, args(mock, {"--extra-inputs", "ignore_eos:true", "--extra-inputs",
                                             R"({"stream_options":{"include_usage":false}})"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json inputs = Json::parse(read_file(r.artifact_dir + "/inputs.json"));
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["stream_options"]["include_usage"], false);
  const Json s = r.summary();
  EXPECT_FALSE(s.contains("usage_completion_tokens"));
  EXPECT_FALSE(s.contains("total_usage_prompt_tokens"));
  EXPECT_EQ(stat(s, "request_count"), 12);
}

// --per-chunk-usage: the body asks for continuous_usage_stats, the mock then reports cumulative
// usage on every chunk, and ITL divides the decode time by OSL minus the first chunk's 4 tokens:
// 16 tokens in 4 events 12 ms apart, decode 36 ms, ITL 36 / 12 = 3 ms (2.4 ms without the flag).
TEST(Aiperf013E2E, PerChunkUsageSubtractsTheFirstChunksTokensFromItl) {
  TempDir dir("a13-pcu");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "12", "--tokens-per-chunk", "4"}));
  for (const char* sub : {"/on", "/off", "/bad"}) fs::create_directories(dir.path + sub);
  auto r = run_profile(dir.path + "/on", args(mock, {"--extra-inputs", "ignore_eos:true",
                                                     "--per-chunk-usage",
                                                     "--use-server-token-count"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json inputs = Json::parse(read_file(r.artifact_dir + "/inputs.json"));
  ASSERT_FALSE(inputs["data"].empty());
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["stream_options"]["continuous_usage_stats"], true);
  const Json s = r.summary();
  EXPECT_EQ(stat(s, "output_sequence_length"), 16);
  EXPECT_NEAR(stat(s, "inter_token_latency", "p50"), 3.0, 0.6);
  auto off = run_profile(dir.path + "/off", args(mock, {"--extra-inputs", "ignore_eos:true",
                                                        "--use-server-token-count"}));
  ASSERT_EQ(off.exit_code, 0) << off.stderr_text;
  EXPECT_NEAR(stat(off.summary(), "inter_token_latency", "p50"), 2.4, 0.5);

  auto bad = run_profile(dir.path + "/bad", args(mock, {"--per-chunk-usage"}));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.stderr_text.find("--per-chunk-usage requires --use-server-token-count"),
            std::string::npos)
      << bad.stderr_text;
}

}  // namespace
}  // namespace servebench::itest
