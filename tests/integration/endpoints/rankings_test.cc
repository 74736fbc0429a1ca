// The rankings types (nim_rankings, hf_tei_rankings, cohere_rankings) and the embeddings variants
// (nim_embeddings, chat_embeddings) end to end: servebench-mock's routes on their own, then
// `servebench profile` against them, synthetic and from an input file, and the option
// combinations the types refuse.
#include <algorithm>
#include <fstream>
#include <map>

#include "integration/mock/mock_harness.h"
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

namespace mt = mock::testing;

TEST(MockRankings, EachRouteAnswersInItsApisShape) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  auto nim = mt::post_json(
      mock->port(), "/v1/ranking",
      R"({"model":"r","query":{"text":"a b"},"passages":[{"text":"c"},{"text":"d e f"}]})");
  ASSERT_EQ(nim.status, 200) << nim.body;
  Json n = Json::parse(nim.body);
  ASSERT_EQ(n["rankings"].size(), 2u);
  EXPECT_GE(n["rankings"][0]["logit"].get<double>(), n["rankings"][1]["logit"].get<double>());
  auto tei = mt::post_json(mock->port(), "/rerank", R"({"query":"a b","texts":["c","d e f"]})");
  ASSERT_EQ(tei.status, 200) << tei.body;
  Json t = Json::parse(tei.body);
  ASSERT_TRUE(t.is_array());
  ASSERT_EQ(t.size(), 2u);
  // Same pair, same score, whichever API asked.
  for (const auto& e : t) {
    for (const auto& f : n["rankings"]) {
      if (f["index"] == e["index"]) {
        EXPECT_EQ(f["logit"], e["score"]);
      }
    }
  }
  for (const char* path : {"/v2/rerank", "/v1/rerank"}) {
    auto co = mt::post_json(
        mock->port(), path,
        R"({"model":"r","query":"a b","documents":["c",{"text":"d e f"}],"top_n":1})");
    ASSERT_EQ(co.status, 200) << co.body;
    Json c = Json::parse(co.body);
    EXPECT_EQ(c["model"], "r");
    ASSERT_EQ(c["results"].size(), 1u);
    EXPECT_EQ(c["results"][0]["index"], t[0]["index"]);  // the best one
    EXPECT_EQ(c["usage"]["prompt_tokens"], 6);           // query + passages, the word rule
  }
  for (const auto& [path, bad] : std::vector<std::pair<std::string, std::string>>{
           {"/v1/ranking", R"({"query":"flat","passages":[{"text":"c"}]})"},
           {"/v1/ranking", R"({"query":{"text":"q"},"passages":["c"]})"},
           {"/rerank", R"({"query":"q","texts":[]})"},
           {"/rerank", R"({"texts":["c"]})"},
           {"/v2/rerank", R"({"query":"q","documents":"c"})"},
           {"/v2/rerank", R"({"query":"q","documents":["c"],"top_n":-1})"},
           {"/v2/rerank", "nope"}}) {
    auto e = mt::post_json(mock->port(), path, bad);
    EXPECT_EQ(e.status, 400) << path << " " << bad;
    EXPECT_TRUE(Json::parse(e.body).contains("error")) << e.body;
  }
  EXPECT_EQ(mt::get(mock->port(), "/rerank").status, 405);
}

TEST(MockRankings, HonoursLatencyAndFaults) {
  auto mock = mt::MockProcess::start({"--ttft-ms", "30"});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(mock->port(), "/rerank", R"({"query":"q","texts":["a"]})");
  ASSERT_EQ(r.status, 200);
  EXPECT_GE(r.headers_ns - r.sent_ns, 30'000'000) << "the answer waits for the model's TTFT";
  auto e = mt::post_json(mock->port(), "/v2/rerank", R"({"query":"q","documents":["a"]})",
                         {{"X-Mock-Scenario", "error_rate=100;error_kind=http500"}});
  EXPECT_EQ(e.status, 500);
}

TEST(MockChatEmbeddings, MessagesEmbedToOneVector) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(
      mock->port(), "/v1/embeddings",
      R"({"model":"v","messages":[{"role":"system","content":"be brief"},)"
      R"({"role":"user","content":[{"type":"text","text":"one two"},{"type":"text","text":"three"}]}]})");
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = Json::parse(r.body);
  ASSERT_EQ(j["data"].size(), 1u);
  EXPECT_EQ(j["usage"]["prompt_tokens"], 5);
}

std::vector<std::string> rankings_args(const std::string& type, const std::string& url,
                                       std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {
      "-m", "mock-model", "--tokenizer", "simple", "--endpoint-type", type, "-u", url};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

struct TypeCase {
  const char* type;
  const char* path;
  const char* title;
};

TEST(ProfileRankings, EachTypeEndToEnd) {
  for (const TypeCase& c : {TypeCase{"nim_rankings", "/v1/ranking", "Rankings Metrics"},
                            TypeCase{"hf_tei_rankings", "/rerank", "Ranking Metrics"},
                            TypeCase{"cohere_rankings", "/v2/rerank", "Ranking Metrics"}}) {
    SCOPED_TRACE(c.type);
    const std::string dir = make_temp_dir(c.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "3", "--record-requests", dir + "/rec.jsonl"}));
    auto r = run_profile(
        dir, rankings_args(
                 c.type, mock.url(),
                 {"--rankings-passages-mean", "4", "--rankings-passages-stddev", "2",
                  "--rankings-passages-prompt-token-mean", "12",
                  "--rankings-passages-prompt-token-stddev", "3",
                  "--rankings-query-prompt-token-mean", "6", "--concurrency", "3",
                  "--request-count", "18", "--num-dataset-entries", "9", "--random-seed", "5"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(fs::path(r.artifact_dir)
                  .filename()
                  .string()
                  .find(std::string("mock-model-openai-") + c.type + "-concurrency3"),
              std::string::npos)
        << r.artifact_dir;
    const auto sent = read_jsonl(dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 18u);
    std::map<std::string, Json> by_id;
    int64_t passages_seen = 0;
    bool spread = false;
    for (const auto& s : sent) {
      EXPECT_EQ(s["path"], c.path);
      EXPECT_GE(s["num_passages"].get<int64_t>(), 1);
      EXPECT_EQ(s["query_tokens"], 6);  // exact by construction
      spread |= s["num_passages"] != sent.front()["num_passages"];
      passages_seen += s["num_passages"].get<int64_t>();
      by_id[s["x_request_id"].get<std::string>()] = s;
    }
    EXPECT_TRUE(spread) << "passage counts drawn from normal(4, 2)";
    EXPECT_GT(passages_seen, 18);
    const auto records = r.records();
    ASSERT_EQ(records.size(), 18u);
    for (const auto& rec : records) {
      const auto& m = rec["metrics"];
      const auto& s = by_id.at(rec["metadata"]["x_request_id"].get<std::string>());
      // ISL = query + passages, as the server counted them.
      EXPECT_EQ(m["input_sequence_length"]["value"].get<double>(),
                s["prompt_tokens"].get<double>());
      EXPECT_TRUE(m.contains("request_latency"));
      EXPECT_FALSE(m.contains("time_to_first_token"));
      EXPECT_FALSE(m.contains("output_sequence_length"));
    }
    auto summary = r.summary();
    EXPECT_EQ(metric_avg(summary, "request_count"), 18);
    EXPECT_TRUE(summary.contains("request_throughput"));
    EXPECT_FALSE(summary.contains("inter_token_latency"));
    const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
    EXPECT_NE(console.find(c.title), std::string::npos) << console;
    // inputs.json and the input_config carry the rankings request and flags.
    const Json cfg = summary["input_config"];
    EXPECT_EQ(cfg["input"]["rankings"]["passages"]["mean"], 4);
    EXPECT_EQ(cfg["input"]["rankings"]["query"]["prompt_token_mean"], 6);
  }
}

TEST(ProfileRankings, InputFileRowsWithNamedTexts) {
  const std::string dir = make_temp_dir("rankings-file");
  {
    std::ofstream f(dir + "/rankings.jsonl");
    f << R"({"texts":[{"name":"query","contents":["what is a whale"]},{"name":"passages","contents":["a whale is a mammal","call me ishmael"]}]})"
      << "\n"
      << R"({"texts":[{"name":"queries","contents":["the sea"]},{"name":"passages","contents":["it was calm"]}],"extra":{"top_n":1}})"
      << "\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, rankings_args("cohere_rankings", mock.url(),
                                          {"--input-file", dir + "/rankings.jsonl",
                                           "--request-count", "4", "--export-level", "raw"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 4u);
  // Sequential order: row 1, row 2, row 1, row 2.
  EXPECT_EQ(sent[0]["num_passages"], 2);
  EXPECT_EQ(sent[0]["prompt_tokens"], 4 + 5 + 3);
  EXPECT_EQ(sent[1]["num_passages"], 1);
  EXPECT_EQ(sent[2]["num_passages"], 2);
  const auto raw = read_jsonl(r.artifact_dir + "/profile_export_raw.jsonl");
  ASSERT_FALSE(raw.empty());
  bool saw_top_n = false;
  for (const auto& line : raw) {
    const std::string dump = line.dump();
    saw_top_n |= dump.find("top_n") != std::string::npos;
  }
  EXPECT_TRUE(saw_top_n) << "a row's extra rides along";

  // A row without passages is a one-line usage error naming the file and the fix.
  {
    std::ofstream f(dir + "/bad.jsonl");
    f << R"({"texts":[{"name":"query","contents":["q"]}]})"
      << "\n";
  }
  auto bad = run_profile(
      dir, rankings_args("nim_rankings", "127.0.0.1:9", {"--input-file", dir + "/bad.jsonl"}), 10);
  EXPECT_EQ(bad.exit_code, 2) << bad.stderr_text;
  EXPECT_NE(bad.stderr_text.find("bad.jsonl:1"), std::string::npos) << bad.stderr_text;
  EXPECT_NE(bad.stderr_text.find("'passages'"), std::string::npos) << bad.stderr_text;
  EXPECT_EQ(std::count(bad.stderr_text.begin(), bad.stderr_text.end(), '\n'), 1) << bad.stderr_text;
}

TEST(ProfileRankings, CombinationsTheTypesRefuseAreUsageErrors) {
  const std::string dir = make_temp_dir("rankings-usage");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--streaming"}, "--streaming"},
      {{"--session-turns-mean", "2"}, "sessions"},
      {{"--cache-bust", "first_turn_prefix"}, "--cache-bust"},
      {{"--isl", "100"}, "--rankings-query-prompt-token-mean"},
      {{"--batch-size", "4"}, "--batch-size"},
      {{"--fixed-schedule"}, "--fixed-schedule"},
  };
  for (const auto& [extra, needle] : cases) {
    auto u = run_profile(dir, rankings_args("hf_tei_rankings", "127.0.0.1:9", extra), 10);
    EXPECT_EQ(u.exit_code, 2) << extra[0] << ": " << u.stderr_text;
    EXPECT_NE(u.stderr_text.find(needle), std::string::npos) << u.stderr_text;
    EXPECT_EQ(std::count(u.stderr_text.begin(), u.stderr_text.end(), '\n'), 1) << u.stderr_text;
  }
  auto chat =
      run_profile(dir, {"-m", "m", "-u", "127.0.0.1:9", "--rankings-passages-mean", "3"}, 10);
  EXPECT_EQ(chat.exit_code, 2);
  EXPECT_NE(chat.stderr_text.find("--rankings-"), std::string::npos) << chat.stderr_text;
  auto zero = run_profile(
      dir, rankings_args("nim_rankings", "127.0.0.1:9", {"--rankings-passages-mean", "0"}), 10);
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.stderr_text.find("--rankings-passages-mean"), std::string::npos)
      << zero.stderr_text;
}

TEST(ProfileEmbeddingsVariants, NimAndChatEmbeddingsEndToEnd) {
  struct Case {
    const char* type;
    std::vector<std::string> extra;
    int64_t inputs;  // the mock's vectors per request
    const char* title;
  };
  for (const Case& c : {Case{"nim_embeddings",
                             {"--batch-size", "3", "--extra-inputs", "input_type:passage"},
                             3,
                             "NIM Embeddings Metrics"},
                        Case{"chat_embeddings", {"--batch-size", "2"}, 1, "Embeddings Metrics"}}) {
    SCOPED_TRACE(c.type);
    const std::string dir = make_temp_dir(c.type);
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "3", "--record-requests", dir + "/rec.jsonl"}));
    auto a = rankings_args(c.type, mock.url(),
                           {"--isl", "10", "--request-count", "6", "--concurrency", "2"});
    a.insert(a.end(), c.extra.begin(), c.extra.end());
    auto r = run_profile(dir, a);
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(fs::path(r.artifact_dir).filename().string().find(std::string("-openai-") + c.type),
              std::string::npos)
        << r.artifact_dir;
    const auto sent = read_jsonl(dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 6u);
    std::map<std::string, Json> by_id;
    for (const auto& s : sent) {
      EXPECT_EQ(s["path"], "/v1/embeddings");
      EXPECT_EQ(s["num_inputs"], c.inputs);
      EXPECT_EQ(s["input_type"], std::string(c.type) == "nim_embeddings" ? "passage" : "");
      by_id[s["x_request_id"].get<std::string>()] = s;
    }
    for (const auto& rec : r.records()) {
      const auto& m = rec["metrics"];
      const auto& s = by_id.at(rec["metadata"]["x_request_id"].get<std::string>());
      EXPECT_EQ(m["input_sequence_length"]["value"].get<double>(),
                s["prompt_tokens"].get<double>());
      EXPECT_FALSE(m.contains("time_to_first_token"));
    }
    const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
    EXPECT_NE(console.find(c.title), std::string::npos) << console;
  }
}

}  // namespace
}  // namespace servebench::itest
