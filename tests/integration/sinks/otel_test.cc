// --otel-url against a local OTLP/HTTP receiver that decodes every export with the official
// opentelemetry-proto definitions (otlp_receiver.py, pinned in ~/.cache/servebench/otel-venv):
// both encodings decode, the GenAI metrics count what the run measured, resource attributes
// arrive, no credential is in any payload, and a dead collector costs a warning, not the run.
#include "integration/sinks/sinks_harness.h"

namespace servebench::itest {
namespace {

constexpr const char* kSecret = "otel-secret-header-987654";

#define SKIP_WITHOUT_OTEL_VENV(py)                                                   \
  if ((py).empty()) {                                                                \
    if (oracles_required()) FAIL() << "otel-venv missing: run scripts/sinks_venvs.sh"; \
    GTEST_SKIP() << "otel-venv missing (scripts/sinks_venvs.sh otel)";                \
  }

const Json* find_metric(const Json& request, const std::string& name) {
  for (const auto& rm : request.at("resourceMetrics"))
    for (const auto& sm : rm.at("scopeMetrics"))
      for (const auto& m : sm.at("metrics"))
        if (m.at("name") == name) return &m;
  return nullptr;
}

std::string attr(const Json& attrs, const std::string& key) {
  for (const auto& a : attrs)
    if (a.at("key") == key) return a.at("value").at("stringValue");
  return "";
}

void run_and_check(const std::string& encoding) {
  const std::string py = oracle_python("otel-venv");
  SKIP_WITHOUT_OTEL_VENV(py);
  const std::string dir = make_temp_dir("sinks-otel-" + encoding);
  const std::string out = dir + "/exports.jsonl";
  Server receiver;
  ASSERT_TRUE(start_announcing(
      &receiver, {py, source_dir() + "/tests/integration/sinks/otlp_receiver.py", out}, 30));
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  const RunResult r = run_profile(
      dir, {"--url", mock.url(), "-m", "mock-model", "--endpoint-type", "chat", "--streaming",
            "--request-count", "10", "--concurrency", "2", "--synthetic-input-tokens-mean", "16",
            "--output-tokens-mean", "8", "--extra-inputs", "ignore_eos:true", "--tokenizer",
            "builtin", "--otel-url", receiver.url(), "--otel-encoding", encoding,
            "--otel-resource-attributes", "deployment.environment=ci,team=perf", "-H",
            std::string("X-Api-Token: ") + kSecret});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  receiver.stop();
  const auto exports = read_jsonl(out);
  ASSERT_FALSE(exports.empty());
  for (const auto& e : exports) {
    ASSERT_FALSE(e.contains("error")) << e.dump();
    EXPECT_EQ(e["raw"].get<std::string>().find(kSecret), std::string::npos);
    EXPECT_EQ(e["headers"].dump().find(kSecret), std::string::npos);
    EXPECT_EQ(e["content_type"].get<std::string>(),
              encoding == "json" ? "application/json" : "application/x-protobuf");
  }
  // Cumulative: the last export holds the whole run.
  const Json& last = exports.back()["request"];
  const Json& resource = last["resourceMetrics"][0]["resource"]["attributes"];
  EXPECT_EQ(attr(resource, "service.name"), "servebench");
  EXPECT_EQ(attr(resource, "deployment.environment"), "ci");
  EXPECT_EQ(attr(resource, "team"), "perf");
  const Json* duration = find_metric(last, "gen_ai.client.operation.duration");
  ASSERT_NE(duration, nullptr);
  EXPECT_EQ((*duration)["unit"], "s");
  const Json& dp = (*duration)["histogram"]["dataPoints"][0];
  EXPECT_EQ(dp["count"], "10");  // protobuf's uint64 maps to a JSON string
  EXPECT_EQ(attr(dp["attributes"], "gen_ai.request.model"), "mock-model");
  EXPECT_EQ(attr(dp["attributes"], "gen_ai.operation.name"), "chat");
  EXPECT_EQ(attr(dp["attributes"], "server.address"), "127.0.0.1");
  EXPECT_EQ((*duration)["histogram"]["aggregationTemporality"], "AGGREGATION_TEMPORALITY_CUMULATIVE");
  // The histogram's sum is the run's request latencies (s vs the summary's ms).
  const Json s = r.summary();
  EXPECT_NEAR(dp["sum"].get<double>(), s.at("request_latency").at("sum").get<double>() / 1e3, 1e-3);
  const Json* ttfc = find_metric(last, "gen_ai.client.operation.time_to_first_chunk");
  ASSERT_NE(ttfc, nullptr);
  EXPECT_EQ((*ttfc)["histogram"]["dataPoints"][0]["count"], "10");
  const Json* tpoc = find_metric(last, "gen_ai.client.operation.time_per_output_chunk");
  ASSERT_NE(tpoc, nullptr);
  EXPECT_EQ((*tpoc)["histogram"]["dataPoints"][0]["count"], "70");  // 8 chunks → 7 gaps each
  const Json* usage = find_metric(last, "gen_ai.client.token.usage");
  ASSERT_NE(usage, nullptr);
  double out_tokens = -1;
  for (const auto& p : (*usage)["histogram"]["dataPoints"])
    if (attr(p["attributes"], "gen_ai.token.type") == "output") out_tokens = p["sum"].get<double>();
  EXPECT_EQ(out_tokens, 80);
  const Json* completed = find_metric(last, "aiperf.timing.requests.completed");
  ASSERT_NE(completed, nullptr);
  EXPECT_EQ((*completed)["sum"]["dataPoints"][0]["asInt"], "10");
  EXPECT_TRUE((*completed)["sum"]["isMonotonic"].get<bool>());
}

TEST(Otel, ProtobufExportDecodesWithTheOfficialDefinitions) { run_and_check("protobuf"); }
TEST(Otel, JsonExportDecodesWithTheOfficialDefinitions) { run_and_check("json"); }

TEST(Otel, DeadCollectorIsAWarningNotAFailure) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const std::string dir = make_temp_dir("sinks-otel-dead");
  const RunResult r = run_profile(
      dir, {"--url", mock.url(), "-m", "mock-model", "--request-count", "4", "--tokenizer",
            "builtin", "--otel-url", "http://127.0.0.1:9"});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("--otel-url"), std::string::npos) << console;
  EXPECT_TRUE(fs::exists(r.artifact_dir + "/profile_export_aiperf.json"));
}

}  // namespace
}  // namespace servebench::itest
