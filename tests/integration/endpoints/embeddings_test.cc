// The embeddings endpoint type end to end: servebench-mock's /v1/embeddings route on its own,
// then `servebench profile --endpoint-type embeddings` against it.
#include <algorithm>
#include <map>

#include "integration/mock/mock_harness.h"
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

namespace mt = mock::testing;

TEST(MockEmbeddings, AnswersOneVectorPerInputWithWordCountUsage) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(mock->port(), "/v1/embeddings",
                         R"({"model":"e5","input":["one two three","four five","six"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = Json::parse(r.body);
  EXPECT_EQ(j["object"], "list");
  EXPECT_EQ(j["model"], "e5");
  ASSERT_EQ(j["data"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(j["data"][i]["index"], i);
    EXPECT_EQ(j["data"][i]["object"], "embedding");
    ASSERT_EQ(j["data"][i]["embedding"].size(), 16u);
    for (const auto& v : j["data"][i]["embedding"]) {
      EXPECT_GE(v.get<double>(), -1.0);
      EXPECT_LE(v.get<double>(), 1.0);
    }
  }
  EXPECT_EQ(j["usage"]["prompt_tokens"], 6);  // the mock's word rule
  EXPECT_EQ(j["usage"]["total_tokens"], 6);

  // Deterministic: the same text embeds to the same vector, whatever its batch; `dimensions`
  // and a single string input are honoured.
  auto again = mt::post_json(mock->port(), "/v1/embeddings", R"({"input":"six","dimensions":16})");
  ASSERT_EQ(again.status, 200) << again.body;
  Json k = Json::parse(again.body);
  ASSERT_EQ(k["data"].size(), 1u);
  EXPECT_EQ(k["data"][0]["embedding"], j["data"][2]["embedding"]);
  EXPECT_NE(j["data"][0]["embedding"], j["data"][1]["embedding"]);
  auto small = mt::post_json(mock->port(), "/v1/embeddings", R"({"input":["a"],"dimensions":3})");
  EXPECT_EQ(Json::parse(small.body)["data"][0]["embedding"].size(), 3u);

  // Bad requests are 400 with an OpenAI error body.
  for (const std::string bad : {R"({"model":"m"})", R"({"input":[]})", R"({"input":5})", "nope",
                                R"({"input":"a","dimensions":0})"}) {
    auto e = mt::post_json(mock->port(), "/v1/embeddings", bad);
    EXPECT_EQ(e.status, 400) << bad;
    EXPECT_TRUE(Json::parse(e.body).contains("error")) << e.body;
  }
  EXPECT_EQ(mt::get(mock->port(), "/v1/embeddings").status, 405);
}

TEST(MockEmbeddings, HonoursLatencyAndFaults) {
  auto mock = mt::MockProcess::start({"--ttft-ms", "30"});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(mock->port(), "/v1/embeddings", R"({"input":["a b"]})");
  ASSERT_EQ(r.status, 200);
  EXPECT_GE(r.headers_ns - r.sent_ns, 30'000'000) << "the answer waits for the model's TTFT";
  auto e = mt::post_json(mock->port(), "/v1/embeddings", R"({"input":["a"]})",
                         {{"X-Mock-Scenario", "error_rate=100;error_kind=http429"}});
  EXPECT_EQ(e.status, 429);
  auto m = mt::post_json(mock->port(), "/v1/embeddings", R"({"input":["a"]})",
                         {{"X-Mock-Scenario", "error_rate=100;error_kind=malformed"}});
  EXPECT_EQ(m.status, 200);
  EXPECT_TRUE(Json::parse(m.body, nullptr, false).is_discarded()) << "a truncated document";
}

const std::vector<std::string> kBase = {"-m",    "mock-model", "--tokenizer",     "simple",
                                        "--isl", "16",         "--endpoint-type", "embeddings"};

std::vector<std::string> args(std::vector<std::string> extra) {
  std::vector<std::string> a = kBase;
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(ProfileEmbeddings, BatchOfFourEndToEnd) {
  const std::string dir = make_temp_dir("embeddings");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(
      dir, args({"-u", mock.url(), "--batch-size", "4", "--concurrency", "4", "--request-count",
                 "24", "--random-seed", "7", "--num-dataset-entries", "10"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  ASSERT_FALSE(r.artifact_dir.empty());
  EXPECT_NE(fs::path(r.artifact_dir).filename().string().find("mock-model-openai-embeddings-"),
            std::string::npos)
      << r.artifact_dir;
  // The server saw batches of four texts.
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 24u);
  std::map<std::string, Json> by_id;
  for (const auto& s : sent) {
    EXPECT_EQ(s["path"], "/v1/embeddings");
    EXPECT_EQ(s["num_inputs"], 4);
    by_id[s["x_request_id"].get<std::string>()] = s;
  }
  const auto records = r.records();
  ASSERT_EQ(records.size(), 24u);
  for (const auto& rec : records) {
    const auto& m = rec["metrics"];
    ASSERT_TRUE(m.contains("input_sequence_length")) << rec.dump();
    // The client's ISL (simple tokenizer: words) is the server's prompt_tokens for the batch.
    const auto& s = by_id.at(rec["metadata"]["x_request_id"].get<std::string>());
    EXPECT_EQ(m["input_sequence_length"]["value"].get<double>(), s["prompt_tokens"].get<double>());
    EXPECT_FALSE(m.contains("time_to_first_token"));
    EXPECT_FALSE(m.contains("inter_token_latency"));
  }
  auto summary = r.summary();
  EXPECT_EQ(metric_avg(summary, "request_count"), 24);
  EXPECT_FALSE(summary.contains("time_to_first_token"));
  EXPECT_FALSE(summary.contains("inter_token_latency"));
  const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("Embeddings Metrics"), std::string::npos) << console;
}

// needs metrics branch: the metric table that drops metrics whose capabilities the endpoint
// lacks, and takes request_latency from response_complete_ns when no content chunk exists.
TEST(ProfileEmbeddings, LatencyWithoutTokenMetrics) {
  const std::string dir = make_temp_dir("embeddings-metrics");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5"}));
  auto r = run_profile(dir, args({"-u", mock.url(), "--batch-size", "4", "--request-count", "8"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  for (const auto& rec : r.records()) {
    const auto& m = rec["metrics"];
    ASSERT_TRUE(m.contains("request_latency")) << rec.dump();          // needs metrics branch
    EXPECT_GE(m["request_latency"]["value"].get<double>(), 5.0);       // needs metrics branch
    EXPECT_FALSE(m.contains("output_sequence_length")) << rec.dump();  // needs metrics branch
  }
  auto summary = r.summary();
  EXPECT_TRUE(summary.contains("request_latency"));  // needs metrics branch
  EXPECT_TRUE(summary.contains("request_throughput"));
  EXPECT_FALSE(summary.contains("output_sequence_length"));   // needs metrics branch
  EXPECT_FALSE(summary.contains("output_token_throughput"));  // needs metrics branch
}

TEST(ProfileEmbeddings, OptionsTheTypeCannotTakeAreUsageErrors) {
  const std::string dir = make_temp_dir("embeddings-usage");
  for (const auto& extra :
       std::vector<std::vector<std::string>>{{"--streaming"},
                                             {"--cache-bust", "first_turn_prefix"},
                                             {"--shared-system-prompt-length", "8"}}) {
    auto a = args({"-u", "127.0.0.1:9"});
    a.insert(a.end(), extra.begin(), extra.end());
    auto u = run_profile(dir, a, 10);
    EXPECT_EQ(u.exit_code, 2) << extra[0] << ": " << u.stderr_text;
    EXPECT_NE(u.stderr_text.find(extra[0]), std::string::npos) << u.stderr_text;
    EXPECT_EQ(std::count(u.stderr_text.begin(), u.stderr_text.end(), '\n'), 1) << u.stderr_text;
  }
  auto chat_batch = run_profile(dir, {"-m", "m", "-u", "127.0.0.1:9", "--batch-size", "2"}, 10);
  EXPECT_EQ(chat_batch.exit_code, 2);
  EXPECT_NE(chat_batch.stderr_text.find("--batch-size"), std::string::npos)
      << chat_batch.stderr_text;
  auto unknown =
      run_profile(dir, {"-m", "m", "-u", "127.0.0.1:9", "--endpoint-type", "embedding"}, 10);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.stderr_text.find("known: chat, chat_embeddings, "), std::string::npos)
      << unknown.stderr_text;
}

}  // namespace
}  // namespace servebench::itest
