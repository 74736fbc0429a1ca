// What a run reports beyond the summary, end to end against servebench-mock: HTTP timing
// (http_req_* from the transport's timestamps, --export-http-trace's trace_data with redacted
// headers, --show-trace-timing's table), outputs.json, speculative-decoding metrics from the
// mock's SGLang-style usage counts, and the refused W&B flags.
#include <algorithm>
#include <cmath>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

constexpr const char* kSecret = "sekret-token-abc123XYZ";
constexpr const char* kApiKey = "sk-servebench-apikey-42";

std::vector<std::string> base_args(const Server& s, int n) {
  return {"--url", s.url(), "-m", "mock-model", "--endpoint-type", "chat", "--streaming",
          "--request-count", std::to_string(n), "--concurrency", "2", "--synthetic-input-tokens-mean",
          "20", "--output-tokens-mean", "12", "--extra-inputs", "ignore_eos:true",
          "--tokenizer", "builtin", "--random-seed", "7"};
}

bool any_file_contains(const std::string& root, const std::string& needle) {
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && read_file(e.path().string()).find(needle) != std::string::npos)
      return true;
  return false;
}

TEST(Sinks, HttpTraceTimingAndHeadersRedacted) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "2"}));
  const std::string dir = make_temp_dir("sinks-trace");
  auto args = base_args(mock, 8);
  args.insert(args.end(), {"--export-http-trace", "--show-trace-timing", "-H",
                           std::string("X-Secret-Auth: ") + kSecret, "--api-key", kApiKey});
  const RunResult r = run_profile(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto recs = r.records();
  ASSERT_EQ(recs.size(), 8u);
  int new_conns = 0;
  for (const auto& rec : recs) {
    const auto& m = rec.at("metrics");
    for (const char* tag : {"http_req_blocked", "http_req_dns_lookup", "http_req_connecting",
                            "http_req_sending", "http_req_waiting", "http_req_receiving",
                            "http_req_duration", "http_req_total", "http_req_connection_overhead",
                            "http_req_chunks_received"}) {
      ASSERT_TRUE(m.contains(tag)) << tag;
      EXPECT_GE(m[tag]["value"].get<double>(), 0) << tag;
    }
    const double sum = m["http_req_blocked"]["value"].get<double>() +
                       m["http_req_dns_lookup"]["value"].get<double>() +
                       m["http_req_connecting"]["value"].get<double>() +
                       m["http_req_sending"]["value"].get<double>() +
                       m["http_req_waiting"]["value"].get<double>() +
                       m["http_req_receiving"]["value"].get<double>();
    EXPECT_NEAR(m["http_req_total"]["value"].get<double>(), sum, 1e-6);
    // The mock sends its headers at once and the first token 20 ms later: the first response
    // byte ends `waiting`, the token delay is in `receiving`.
    EXPECT_GE(m["http_req_receiving"]["value"].get<double>(), 19.0);
    EXPECT_LT(m["http_req_waiting"]["value"].get<double>(),
              m["time_to_first_token"]["value"].get<double>());
    const bool reused = m["http_req_connection_reused"]["value"].get<double>() > 0;
    const auto& t = rec.at("trace_data");
    if (!reused) {
      ++new_conns;
      EXPECT_FALSE(t["connect_start_ns"].is_null());
      EXPECT_GE(t["connected_ns"].get<int64_t>(), t["connect_start_ns"].get<int64_t>());
    } else {
      EXPECT_TRUE(t["connect_start_ns"].is_null());
      EXPECT_EQ(m["http_req_connecting"]["value"].get<double>(), 0.0);
    }
    EXPECT_LE(t["request_start_ns"].get<int64_t>(), t["request_sent_ns"].get<int64_t>());
    EXPECT_LE(t["request_sent_ns"].get<int64_t>(), t["response_start_ns"].get<int64_t>());
    EXPECT_LE(t["response_start_ns"].get<int64_t>(), t["response_end_ns"].get<int64_t>());
    const auto headers = t["request_headers"].dump();
    EXPECT_NE(headers.find("X-Secret-Auth: <redacted>"), std::string::npos) << headers;
    EXPECT_NE(headers.find("Authorization: <redacted>"), std::string::npos) << headers;
    EXPECT_NE(headers.find("X-Request-ID: " + rec["metadata"]["x_request_id"].get<std::string>()),
              std::string::npos);
  }
  EXPECT_GE(new_conns, 1);  // at least one connection was opened (concurrency 2: usually 2)
  EXPECT_LE(new_conns, 4);
  const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("HTTP Trace"), std::string::npos);
  EXPECT_NE(console.find("HTTP Waiting (TTFB)"), std::string::npos);
  EXPECT_FALSE(any_file_contains(r.artifact_root, kSecret));
  EXPECT_FALSE(any_file_contains(r.artifact_root, kApiKey));
  // The summary's statistics come from the same values.
  const Json s = r.summary();
  EXPECT_EQ(s.at("http_req_waiting").at("count").get<int64_t>(), 8);
}

TEST(Sinks, NoTraceDataOrTableWithoutTheFlags) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const std::string dir = make_temp_dir("sinks-notrace");
  const RunResult r = run_profile(dir, base_args(mock, 3));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  for (const auto& rec : r.records()) EXPECT_FALSE(rec.contains("trace_data"));
  EXPECT_EQ(read_file(r.artifact_dir + "/profile_export_console.txt").find("HTTP Trace"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(r.artifact_dir + "/outputs.json"));
}

TEST(Sinks, OutputsJsonHoldsEachRequestsText) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const std::string dir = make_temp_dir("sinks-outputs");
  auto args = base_args(mock, 6);
  args.push_back("--export-outputs-json");
  const RunResult r = run_profile(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json out = Json::parse(read_file(r.artifact_dir + "/outputs.json"));
  ASSERT_EQ(out.at("data").size(), 6u);
  std::vector<std::string> ids;
  for (const auto& e : out["data"]) {
    EXPECT_TRUE(e["error"].is_null());
    EXPECT_FALSE(e["output_text"].get<std::string>().empty());
    ids.push_back(e["x_request_id"].get<std::string>());
  }
  // The same requests as the records, and each text has the tokens the record counted (the mock
  // answers one builtin-tokenizer token per word).
  for (const auto& rec : r.records()) {
    const auto id = rec["metadata"]["x_request_id"].get<std::string>();
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
}

TEST(Sinks, SpecDecodeMetricsFromServerCounts) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--spec-decode", "4"}));
  const std::string dir = make_temp_dir("sinks-spec");
  auto args = base_args(mock, 5);
  args.push_back("--use-server-token-count");  // streamed usage only when asked for
  const RunResult r = run_profile(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  double steps = 0, accepted = 0, draft = 0;
  for (const auto& rec : r.records()) {
    const auto& m = rec.at("metrics");
    ASSERT_TRUE(m.contains("spec_decode_steps")) << m.dump();
    const double s = m["spec_decode_steps"]["value"], a = m["spec_decode_accepted_draft_tokens"]["value"],
                 d = m["spec_decode_draft_tokens"]["value"];
    // Mock: K = 4 drafts per step, 2 accepted + 1 own token per step, 12 tokens -> 4 steps.
    EXPECT_EQ(s, 4);
    EXPECT_EQ(a, 8);
    EXPECT_EQ(d, 16);
    EXPECT_DOUBLE_EQ(m["spec_decode_acceptance_length"]["value"].get<double>(), 1 + a / s);
    EXPECT_DOUBLE_EQ(m["spec_decode_draft_acceptance_rate"]["value"].get<double>(), 100 * a / d);
    EXPECT_DOUBLE_EQ(m["spec_decode_accepted_per_verified"]["value"].get<double>(), (a + s) / (d + s));
    steps += s;
    accepted += a;
    draft += d;
  }
  const Json sum = r.summary();
  EXPECT_EQ(sum.at("total_spec_decode_steps").at("avg").get<double>(), steps);
  EXPECT_EQ(sum.at("total_accepted_draft_tokens").at("avg").get<double>(), accepted);
  EXPECT_EQ(sum.at("total_draft_tokens").at("avg").get<double>(), draft);
  EXPECT_DOUBLE_EQ(sum.at("spec_decode_token_weighted_acceptance_length").at("avg").get<double>(),
                   1 + accepted / steps);
  EXPECT_DOUBLE_EQ(sum.at("spec_decode_overall_draft_acceptance_rate").at("avg").get<double>(),
                   100 * accepted / draft);
  EXPECT_NE(read_file(r.artifact_dir + "/profile_export_console.txt").find("Spec Decode"),
            std::string::npos);
}

TEST(Sinks, NoSpecDecodeRowsWhenTheServerReportsNone) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const std::string dir = make_temp_dir("sinks-nospec");
  auto args = base_args(mock, 3);
  args.push_back("--use-server-token-count");
  const RunResult r = run_profile(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_FALSE(r.summary().contains("spec_decode_acceptance_length"));
  EXPECT_EQ(read_file(r.artifact_dir + "/profile_export_console.txt").find("Spec Decode"),
            std::string::npos);
}

TEST(Sinks, WandbFlagsAreRefusedWithAMessage) {
  const std::string dir = make_temp_dir("sinks-wandb");
  for (const char* flag : {"--wandb-project", "--wandb-entity", "--wandb-run-name", "--wandb-tag"}) {
    const RunResult r = run_profile(dir, {"--url", "http://127.0.0.1:9", "-m", "m", flag, "x"});
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_NE(r.stderr_text.find("not supported"), std::string::npos) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("--mlflow-tracking-uri"), std::string::npos) << r.stderr_text;
  }
}

TEST(Sinks, BadSinkFlagsAreUsageErrors) {
  const std::string dir = make_temp_dir("sinks-bad");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--otel-url", "localhost:4318"},
           {"--mlflow-tracking-uri", "file:///tmp/mlruns"},
           {"--mlflow-tracking-uri", "http://user:pw@127.0.0.1:5000"},
           {"--mlflow-tag", "novalue"},
           {"--otel-resource-attributes", "=x"},
           {"--stream", "everything"}}) {
    std::vector<std::string> a = {"--url", "http://127.0.0.1:9", "-m", "m"};
    a.insert(a.end(), args.begin(), args.end());
    const RunResult r = run_profile(dir, a);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1];
    EXPECT_NE(r.stderr_text.find(args[0]), std::string::npos) << r.stderr_text;
  }
}

}  // namespace
}  // namespace servebench::itest
