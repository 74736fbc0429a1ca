// huggingface_generate, solido_rag, template and raw end to end: servebench-mock's TGI and Solido
// routes on their own, then `servebench profile` with each type against the mock, streaming and
// not, checking what the server saw (--record-requests, --ground-truth) against the artifacts.
#include <algorithm>
#include <fstream>
#include <map>

#include "integration/mock/mock_harness.h"
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

namespace mt = mock::testing;

// The data payloads of an SSE body, with whether each used TGI's `data:` (no space) framing.
std::vector<std::pair<std::string, bool>> data_lines(const std::string& body) {
  std::vector<std::pair<std::string, bool>> out;
  size_t at = 0;
  while ((at = body.find("data:", at)) != std::string::npos) {
    const size_t end = body.find("\n\n", at);
    if (end == std::string::npos) break;
    const bool spaced = body[at + 5] == ' ';
    out.emplace_back(body.substr(at + (spaced ? 6 : 5), end - at - (spaced ? 6 : 5)), !spaced);
    at = end + 2;
  }
  return out;
}

TEST(MockTgi, GenerateAndGenerateStreamInTgisShapes) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(
      mock->port(), "/generate",
      R"({"inputs":"one two three","parameters":{"max_new_tokens":6,"details":true}})");
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = Json::parse(r.body);
  ASSERT_TRUE(j["generated_text"].is_string());
  EXPECT_LE(j["details"]["generated_tokens"].get<int>(), 6);
  EXPECT_TRUE(j["details"]["seed"].is_null());
  auto plain = mt::post_json(mock->port(), "/generate", R"({"inputs":"x"})");
  EXPECT_FALSE(Json::parse(plain.body).contains("details"));

  auto s = mt::post_json(mock->port(), "/generate_stream",
                         R"({"inputs":"one two","parameters":{"max_new_tokens":5}})",
                         {{"X-Mock-Scenario", "output_tokens=5"}});
  ASSERT_EQ(s.status, 200);
  EXPECT_NE(s.headers["content-type"].find("text/event-stream"), std::string::npos);
  const auto events = data_lines(s.body);
  ASSERT_EQ(events.size(), 5u) << s.body;
  std::string joined;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_TRUE(events[i].second) << "TGI writes data: without a space";
    Json e = Json::parse(events[i].first);
    EXPECT_EQ(e["index"], i + 1);
    EXPECT_FALSE(e["token"]["special"].get<bool>());
    joined += e["token"]["text"].get<std::string>();
    if (i + 1 < events.size()) {
      EXPECT_TRUE(e["generated_text"].is_null());
      EXPECT_TRUE(e["details"].is_null());
    } else {
      EXPECT_EQ(e["generated_text"], joined);
      EXPECT_EQ(e["details"]["finish_reason"], "length");
      EXPECT_EQ(e["details"]["generated_tokens"], 5);
      EXPECT_EQ(e["details"]["input_length"], 2);
    }
  }
  EXPECT_EQ(s.body.find("[DONE]"), std::string::npos);

  for (const std::string bad :
       {R"({"parameters":{}})", R"({"inputs":"a","parameters":{"max_new_tokens":0}})", "[1]"}) {
    EXPECT_EQ(mt::post_json(mock->port(), "/generate", bad).status, 400) << bad;
  }
  auto fault =
      mt::post_json(mock->port(), "/generate_stream", R"({"inputs":"a b"})",
                    {{"X-Mock-Scenario", "error_rate=100;error_kind=error-event;output_tokens=4"}});
  EXPECT_NE(fault.body.find(
                "data:{\"error\":\"mock injected error event\",\"error_type\":\"generation\"}"),
            std::string::npos)
      << fault.body;
  EXPECT_EQ(mt::post_json(mock->port(), "/generate", R"({"inputs":"a"})",
                          {{"X-Mock-Scenario", "error_rate=100;error_kind=http429"}})
                .status,
            429);
}

TEST(MockSolido, PromptRouteStreamsWhenAsked) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  const std::string body =
      R"({"query":["one two","three"],"filters":{"family":"Solido","tool":"SDE"},"inference_model":"m"})";
  auto r = mt::post_json(mock->port(), "/rag/api/prompt", body);
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = Json::parse(r.body);
  EXPECT_TRUE(j["content"].is_string());
  EXPECT_TRUE(j["sources"].is_array());
  auto s = mt::post_json(mock->port(), "/rag/api/prompt", body,
                         {{"Accept", "text/event-stream"}, {"X-Mock-Scenario", "output_tokens=3"}});
  const auto events = data_lines(s.body);
  ASSERT_EQ(events.size(), 3u) << s.body;
  for (const auto& e : events) EXPECT_TRUE(Json::parse(e.first)["content"].is_string());
  EXPECT_EQ(mt::post_json(mock->port(), "/rag/api/prompt", R"({"query":"not a list"})").status,
            400);
}

const std::vector<std::string> kBase = {"-m",
                                        "mock-model",
                                        "--tokenizer",
                                        "simple",
                                        "--isl",
                                        "16",
                                        "--osl",
                                        "12",
                                        "--request-count",
                                        "16",
                                        "--concurrency",
                                        "4",
                                        "--random-seed",
                                        "3"};

std::vector<std::string> args(std::vector<std::string> extra) {
  std::vector<std::string> a = kBase;
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// Runs a profile against a fresh mock recording requests and ground truth; checks every record's
// ISL/OSL against what the server saw, and TTFT present exactly when streaming.
struct Checked {
  RunResult run;
  std::vector<Json> sent;
};

Checked profile_checked(const std::string& tag, std::vector<std::string> extra, bool streaming,
                        const std::string& want_path, bool check_isl = true) {
  Checked c;
  const std::string dir = make_temp_dir(tag);
  Server mock;
  EXPECT_TRUE(
      mock.start_mock({"--ttft-ms", "3", "--itl-ms", "1", "--record-requests", dir + "/rec.jsonl",
                       "--record-bodies", "--ground-truth", dir + "/gt.jsonl"}));
  extra.insert(extra.begin(), {"-u", mock.url()});
  if (streaming) extra.push_back("--streaming");
  c.run = run_profile(dir, args(extra));
  mock.stop();
  EXPECT_EQ(c.run.exit_code, 0) << c.run.stderr_text;
  c.sent = read_jsonl(dir + "/rec.jsonl");
  std::map<std::string, Json> truth;
  for (const auto& g : read_jsonl(dir + "/gt.jsonl"))
    truth[g["x_request_id"].get<std::string>()] = g;
  EXPECT_EQ(c.sent.size(), 16u);
  for (const auto& s : c.sent) EXPECT_EQ(s["path"], want_path);
  const auto records = c.run.records();
  EXPECT_EQ(records.size(), 16u);
  for (const auto& rec : records) {
    const auto& m = rec["metrics"];
    const auto& g = truth.at(rec["metadata"]["x_request_id"].get<std::string>());
    EXPECT_EQ(g["outcome"], "ok");
    EXPECT_EQ(m["output_sequence_length"]["value"].get<double>(),
              g["completion_tokens"].get<double>())
        << rec.dump();
    if (check_isl) {
      EXPECT_EQ(m["input_sequence_length"]["value"].get<double>(),
                g["prompt_tokens"].get<double>());
    }
    // The mock's latency model holds for these routes too: nothing arrives before its TTFT.
    EXPECT_GE(m["request_latency"]["value"].get<double>(), 3.0);
    if (streaming) {
      EXPECT_GE(m["time_to_first_token"]["value"].get<double>(), 3.0);
    }
    EXPECT_EQ(m.contains("time_to_first_token"), streaming) << rec.dump();
    EXPECT_EQ(m.contains("inter_token_latency"),
              streaming && m["output_sequence_length"]["value"] > 1);
  }
  return c;
}

TEST(ProfileGeneric, HuggingfaceGenerateStreamingAndNot) {
  for (bool streaming : {false, true}) {
    auto c = profile_checked(
        "tgi", {"--endpoint-type", "huggingface_generate", "--extra-inputs", "temperature:0.5"},
        streaming, streaming ? "/generate_stream" : "/generate");
    EXPECT_NE(c.run.artifact_dir.find("mock-model-huggingface_generate-concurrency4"),
              std::string::npos)
        << c.run.artifact_dir;
    ASSERT_FALSE(c.sent.empty());
    Json body = Json::parse(c.sent[0]["body"].get<std::string>());
    EXPECT_EQ(body["parameters"]["max_new_tokens"], 12);
    EXPECT_EQ(body["parameters"]["temperature"], 0.5);
    EXPECT_TRUE(body["inputs"].is_string());
    const std::string console = read_file(c.run.artifact_dir + "/profile_export_console.txt");
    EXPECT_NE(console.find("LLM Metrics"), std::string::npos);
  }
}

TEST(ProfileGeneric, SolidoRagStreamingAndNot) {
  for (bool streaming : {false, true}) {
    auto c =
        profile_checked("solido", {"--endpoint-type", "solido_rag"}, streaming, "/rag/api/prompt");
    ASSERT_FALSE(c.sent.empty());
    EXPECT_EQ(c.sent[0]["stream"], streaming);
    Json body = Json::parse(c.sent[0]["body"].get<std::string>());
    EXPECT_EQ(body["filters"]["tool"], "SDE");
    EXPECT_EQ(body["inference_model"], "mock-model");
    const std::string console = read_file(c.run.artifact_dir + "/profile_export_console.txt");
    EXPECT_NE(console.find("SOLIDO RAG Metrics"), std::string::npos) << console;
  }
}

TEST(ProfileGeneric, TemplateSpeaksChatThroughItsTemplate) {
  const std::string tmpl =
      R"(payload_template:{"messages": [{"role": "user", "content": {{ text|tojson }}}], "model": {{ model|tojson }}, "max_tokens": {{ max_tokens }}, "stream": {{ stream|lower }}})";
  for (bool streaming : {false, true}) {
    auto c = profile_checked("template",
                             {"--endpoint-type", "template", "--endpoint", "/v1/chat/completions",
                              "--extra-inputs", tmpl, "--extra-inputs", "ignore_eos:true"},
                             streaming, "/v1/chat/completions");
    EXPECT_NE(c.run.artifact_dir.find("mock-model-template-"), std::string::npos);
    ASSERT_FALSE(c.sent.empty());
    Json body = Json::parse(c.sent[0]["body"].get<std::string>());
    EXPECT_EQ(body["stream"], streaming);
    EXPECT_EQ(body["max_tokens"], 12);
    EXPECT_EQ(body["ignore_eos"], true);  // other --extra-inputs members join the body
    EXPECT_FALSE(body.contains("payload_template"));
    for (const auto& rec : c.run.records()) {
      EXPECT_EQ(rec["metrics"]["output_sequence_length"]["value"], 12);
    }
  }
}

TEST(ProfileGeneric, TemplateResponseFieldOnEmbeddingsBatches) {
  const std::string dir = make_temp_dir("template-emb");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(
      dir, {"-m",
            "mock-model",
            "--tokenizer",
            "simple",
            "--isl",
            "8",
            "-u",
            mock.url() + "/v1/embeddings",
            "--endpoint-type",
            "template",
            "--extra-inputs",
            R"(payload_template:{"input": {{ texts|tojson }}, "model": {{ model|tojson }}})",
            "--extra-inputs",
            "response_field:data[*].embedding",
            "--batch-size",
            "3",
            "--request-count",
            "6",
            "--export-level",
            "raw"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 6u);
  for (const auto& s : sent) {
    EXPECT_EQ(s["path"], "/v1/embeddings");
    EXPECT_EQ(s["num_inputs"], 3);
  }
  EXPECT_EQ(r.records().size(), 6u);
  EXPECT_EQ(metric_avg(r.summary(), "request_count"), 6);
  // A field that matches nothing is an error per request, not a silent success.
  const std::string dir2 = make_temp_dir("template-miss");
  Server mock2;
  ASSERT_TRUE(mock2.start_mock({}));
  auto miss = run_profile(dir2, {"-m", "mock-model", "--tokenizer", "simple", "--isl", "8", "-u",
                                 mock2.url() + "/v1/embeddings", "--endpoint-type", "template",
                                 "--extra-inputs", "payload_template:nv-embedqa", "--extra-inputs",
                                 "response_field:vectors[0]", "--request-count", "4"});
  mock2.stop();
  EXPECT_NE(miss.exit_code, 0);
  EXPECT_EQ(metric_avg(miss.summary(), "error_request_count"), 4);
}

TEST(ProfileGeneric, RawSendsPayloadsVerbatim) {
  const std::string dir = make_temp_dir("raw");
  {
    std::ofstream f(dir + "/payloads.jsonl");
    f << R"({"payload":{"model":"mock-model","messages":[{"role":"user","content":"alpha beta gamma"}],"max_tokens":6,"ignore_eos":true,"custom_field":1}})"
      << "\n";
    f << R"({"payload":{"model":"mock-model","messages":[{"role":"user","content":"delta"}],"max_tokens":3,"ignore_eos":true}})"
      << "\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl", "--record-bodies"}));
  auto r = run_profile(
      dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url() + "/v1/chat/completions",
            "--endpoint-type", "raw", "--input-file", dir + "/payloads.jsonl",
            "--custom-dataset-type", "raw_payload", "--request-count", "4", "--concurrency", "1"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 4u);
  EXPECT_EQ(
      Json::parse(sent[0]["body"].get<std::string>()),
      Json::parse(
          R"({"model":"mock-model","messages":[{"role":"user","content":"alpha beta gamma"}],"max_tokens":6,"ignore_eos":true,"custom_field":1})"));
  std::vector<double> osl, isl;
  for (const auto& rec : r.records()) {
    osl.push_back(rec["metrics"]["output_sequence_length"]["value"].get<double>());
    isl.push_back(rec["metrics"]["input_sequence_length"]["value"].get<double>());
  }
  std::sort(isl.begin(), isl.end());
  EXPECT_EQ(isl, (std::vector<double>{1, 1, 3, 3}));  // the payloads' message texts, in words
  std::sort(osl.begin(), osl.end());
  EXPECT_EQ(osl, (std::vector<double>{3, 3, 6, 6}));  // chat answers auto-detected as text
}

// A failing server: every fault kind the mock injects is a recorded error, never a crash or a
// hang, for each type's parser, streaming and not.
TEST(ProfileGeneric, FaultsAreRecordedErrors) {
  struct Type {
    std::vector<std::string> args;
  };
  const std::vector<Type> types = {
      {{"--endpoint-type", "huggingface_generate"}},
      {{"--endpoint-type", "solido_rag"}},
      {{"--endpoint-type", "template", "--endpoint", "/v1/chat/completions", "--extra-inputs",
        R"(payload_template:{"messages": [{"role": "user", "content": {{ text|tojson }}}], "stream": {{ stream|lower }}})"}},
  };
  for (const auto& t : types) {
    for (bool streaming : {false, true}) {
      const std::string dir = make_temp_dir("generic-faults");
      Server mock;
      ASSERT_TRUE(mock.start_mock({"--error-rate", "50", "--error-kind", "mixed", "--seed", "5",
                                   "--ground-truth", dir + "/gt.jsonl"}));
      std::vector<std::string> a = {"-m",
                                    "mock-model",
                                    "--tokenizer",
                                    "simple",
                                    "--isl",
                                    "8",
                                    "--osl",
                                    "6",
                                    "-u",
                                    mock.url(),
                                    "--request-count",
                                    "24",
                                    "--concurrency",
                                    "4",
                                    "--request-timeout-seconds",
                                    "20"};
      a.insert(a.end(), t.args.begin(), t.args.end());
      if (streaming) a.push_back("--streaming");
      auto r = run_profile(dir, a, 60);
      mock.stop();
      SCOPED_TRACE(t.args[1] + (streaming ? " streaming" : ""));
      EXPECT_FALSE(r.timed_out);
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << " " << r.stderr_text;
      // What the server did to each request id (a request the client sent again after a reset
      // appears more than once).
      std::map<std::string, std::vector<std::string>> outcomes;
      for (const auto& g : read_jsonl(dir + "/gt.jsonl"))
        outcomes[g["x_request_id"].get<std::string>()].push_back(g["outcome"].get<std::string>());
      int errors = 0, ok = 0;
      for (const auto& rec : r.records()) {
        const auto& seen = outcomes[rec["metadata"]["x_request_id"].get<std::string>()];
        ASSERT_FALSE(seen.empty());
        const bool failed = rec.contains("error") && !rec["error"].is_null();
        if (failed) {
          ++errors;
          EXPECT_NE(std::count(seen.begin(), seen.end(), "ok"), static_cast<long>(seen.size()))
              << rec.dump();
        } else {
          ++ok;
          EXPECT_EQ(seen.back(), "ok") << rec.dump();
        }
      }
      EXPECT_GT(errors, 0);
      EXPECT_GT(ok, 0);
      EXPECT_EQ(errors + ok, 24);
      const auto s = r.summary();
      EXPECT_EQ(metric_avg(s, "error_request_count"), errors);
    }
  }
}

TEST(ProfileGeneric, BadCombinationsAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("generic-usage");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--endpoint-type", "template", "--extra-inputs", R"(payload_template:{"prompt": "fixed"})"},
       "placeholder"},
      {{"--endpoint-type", "template"}, "payload_template"},
      {{"--endpoint-type", "template", "--extra-inputs", "payload_template:nv-embedqa",
        "--extra-inputs", "response_field:data[?x]"},
       "response_field"},
      {{"--endpoint-type", "raw"}, "--input-file"},
      {{"--endpoint-type", "huggingface_generate", "--shared-system-prompt-length", "8"},
       "--shared-system-prompt-length"},
      {{"--endpoint-type", "solido_rag", "--session-turns-mean", "3", "--num-sessions", "2"},
       "--session-turns-mean"},
      {{"--endpoint-type", "huggingface_generate", "--batch-size", "2"}, "--batch-size"},
      {{"--endpoint-type", "template", "--extra-inputs", "payload_template:nv-embedqa",
        "--cache-bust", "first_turn_prefix"},
       "--cache-bust"},
  };
  for (const auto& [extra, word] : cases) {
    std::vector<std::string> a = {"-m", "m", "--tokenizer", "simple", "-u", "127.0.0.1:9"};
    a.insert(a.end(), extra.begin(), extra.end());
    auto u = run_profile(dir, a, 10);
    EXPECT_EQ(u.exit_code, 2) << extra[1] << ": " << u.stderr_text;
    EXPECT_NE(u.stderr_text.find(word), std::string::npos) << u.stderr_text;
    EXPECT_EQ(std::count(u.stderr_text.begin(), u.stderr_text.end(), '\n'), 1) << u.stderr_text;
  }
}

}  // namespace
}  // namespace servebench::itest
