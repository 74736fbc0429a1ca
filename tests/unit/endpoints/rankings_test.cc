// The rankings types (nim_rankings, hf_tei_rankings, cohere_rankings) and the embeddings
// variants (nim_embeddings, chat_embeddings): bodies, option rules, and the parsers on answers
// captured from llama.cpp's llama-server started with --reranking (tests/unit/endpoints/data/
// llamacpp_rerank_*.json: TEI `texts` bodies on /rerank, Cohere/Jina `documents` bodies on
// /v1/rerank) and on NIM's documented /v1/ranking answer (nim_ranking_documented.json).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "endpoints/endpoint.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

using nlohmann::json;
using record::ErrorKind;
using record::RequestRecord;

std::string data(const std::string& name) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  std::string dir = src ? std::string(src) : std::string(SERVEBENCH_TEST_SOURCE_DIR);
  std::ifstream in(dir + "/tests/unit/endpoints/data/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::unique_ptr<Endpoint> make(const std::string& type, const std::string& extras = "") {
  EndpointOptions o;
  o.model = "rr";
  o.extra_inputs_json = extras;
  auto e = make_endpoint(type, o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return std::move(*e);
}

TurnPayload ranking(std::string query, std::vector<std::string> passages) {
  TurnPayload t;
  t.messages.push_back({"query", std::move(query)});
  for (auto& p : passages) t.messages.push_back({"passage", std::move(p)});
  t.max_output_tokens = 50;  // not a rankings parameter: never sent
  return t;
}

TEST(Rankings, BodiesFollowEachApi) {
  const TurnPayload t = ranking("what is a \"whale\"", {"a mammal", "call me\nishmael"});
  EXPECT_EQ(make("nim_rankings")->render_body(t),
            R"({"model":"rr","query":{"text":"what is a \"whale\""},)"
            R"("passages":[{"text":"a mammal"},{"text":"call me\nishmael"}]})");
  EXPECT_EQ(make("hf_tei_rankings")->render_body(t),
            R"({"query":"what is a \"whale\"","texts":["a mammal","call me\nishmael"]})");
  EXPECT_EQ(
      make("cohere_rankings")->render_body(t),
      R"({"model":"rr","query":"what is a \"whale\"","documents":["a mammal","call me\nishmael"]})");
  // Every body is valid JSON.
  for (const char* type : {"nim_rankings", "hf_tei_rankings", "cohere_rankings"}) {
    EXPECT_FALSE(json::parse(make(type)->render_body(t), nullptr, false).is_discarded()) << type;
  }
}

TEST(Rankings, QueryIsTheQueryRoleWhereverItIs) {
  TurnPayload t;
  t.messages = {{"passage", "p1"}, {"query", "q"}, {"passage", "p2"}};
  t.model = "per-turn";
  EXPECT_EQ(make("cohere_rankings")->render_body(t),
            R"({"model":"per-turn","query":"q","documents":["p1","p2"]})");
  // Without a query role the first message is the query.
  t.messages = {{"user", "q0"}, {"user", "p"}};
  EXPECT_EQ(make("hf_tei_rankings")->render_body(t), R"({"query":"q0","texts":["p"]})");
}

TEST(Rankings, ExtrasAppendAndOverride) {
  auto e = make("cohere_rankings", R"({"top_n":2,"model":"z","return_documents":false})");
  EXPECT_EQ(e->render_body(ranking("q", {"a"})),
            R"({"query":"q","documents":["a"],"top_n":2,"model":"z","return_documents":false})");
  auto row = BodyExtras::parse(R"({"top_n":1,"truncate":"END"})", "extra");
  ASSERT_TRUE(row.has_value());
  TurnPayload t = ranking("q", {"a"});
  t.extras = &*row;
  EXPECT_EQ(
      make("nim_rankings", R"({"top_n":2})")->render_body(t),
      R"({"model":"rr","query":{"text":"q"},"passages":[{"text":"a"}],"top_n":1,"truncate":"END"})");
}

TEST(Rankings, CapturedTeiAnswerIsCounted) {
  auto p = make_event_parser("hf_tei_rankings");
  RequestRecord rec;
  EXPECT_EQ(p->parse_body(data("llamacpp_rerank_tei.json"), 42, &rec), ParseStatus::kOk);
  EXPECT_TRUE(rec.ok()) << rec.error_message;
  EXPECT_EQ(rec.output_items, 3);
  EXPECT_FALSE(rec.usage.present());  // TEI's list carries no usage
  ASSERT_EQ(rec.chunks.size(), 1u);
  EXPECT_EQ(rec.chunks[0].kind, record::ChunkKind::kEmpty);
  EXPECT_EQ(rec.chunks[0].recv_ns, 42);
  EXPECT_TRUE(rec.output_text.empty());
  // TEI servers may also wrap the list in `results`.
  RequestRecord wrapped;
  EXPECT_EQ(p->parse_body(R"({"results":[{"index":0,"score":1.5}]})", 1, &wrapped),
            ParseStatus::kOk);
  EXPECT_EQ(wrapped.output_items, 1);
}

TEST(Rankings, CapturedCohereAnswersAreCountedWithUsage) {
  auto p = make_event_parser("cohere_rankings");
  RequestRecord rec;
  EXPECT_EQ(p->parse_body(data("llamacpp_rerank_cohere.json"), 7, &rec), ParseStatus::kOk);
  EXPECT_TRUE(rec.ok()) << rec.error_message;
  EXPECT_EQ(rec.output_items, 3);
  EXPECT_EQ(rec.usage.prompt_tokens, 30);
  EXPECT_EQ(rec.usage.total_tokens, 30);
  EXPECT_EQ(rec.usage.completion_tokens, -1);
  RequestRecord top;
  EXPECT_EQ(p->parse_body(data("llamacpp_rerank_cohere_top_n.json"), 7, &top), ParseStatus::kOk);
  EXPECT_EQ(top.output_items, 1);
  EXPECT_EQ(top.usage.prompt_tokens, 21);
}

TEST(Rankings, DocumentedNimAnswerIsCounted) {
  auto p = make_event_parser("nim_rankings");
  RequestRecord rec;
  EXPECT_EQ(p->parse_body(data("nim_ranking_documented.json"), 7, &rec), ParseStatus::kOk);
  EXPECT_TRUE(rec.ok()) << rec.error_message;
  EXPECT_EQ(rec.output_items, 3);
}

TEST(Rankings, CapturedErrorsAreServerErrors) {
  for (const char* type : {"nim_rankings", "hf_tei_rankings", "cohere_rankings"}) {
    for (const char* file :
         {"llamacpp_rerank_error.json", "llamacpp_rerank_empty_documents_error.json"}) {
      SCOPED_TRACE(std::string(type) + " " + file);
      auto p = make_event_parser(type);
      RequestRecord rec;
      EXPECT_EQ(p->parse_body(data(file), 1, &rec), ParseStatus::kServerError);
      EXPECT_EQ(rec.error, ErrorKind::kServerErrorEvent);
      EXPECT_NE(rec.error_message.find("must be"), std::string::npos) << rec.error_message;
    }
  }
  // TEI's own error shape: a string `error`.
  auto p = make_event_parser("hf_tei_rankings");
  RequestRecord rec;
  EXPECT_EQ(
      p->parse_body(R"({"error":"Input validation error","error_type":"Validation"})", 1, &rec),
      ParseStatus::kServerError);
  EXPECT_NE(rec.error_message.find("Input validation error"), std::string::npos);
}

TEST(Rankings, WrongShapesAreMalformedAndNameTheList) {
  struct Case {
    const char* type;
    std::string body;
    const char* why;
  };
  const Case cases[] = {
      {"nim_rankings", data("llamacpp_rerank_cohere.json"), "rankings array"},
      {"cohere_rankings", data("nim_ranking_documented.json"), "results array"},
      {"cohere_rankings", data("llamacpp_rerank_tei.json"), "bare list"},
      {"nim_rankings", R"({"rankings":{"index":0}})", "rankings array"},
      {"hf_tei_rankings", R"({"scores":[1,2]})", "results"},
      {"hf_tei_rankings", R"("ranked")", "not a JSON object or list"},
      {"hf_tei_rankings", R"(42)", "not a JSON object or list"},
      {"cohere_rankings", R"({"results":[{"index":0})", ""},
      {"cohere_rankings", R"({"results":[]} trailing)", ""},
      {"nim_rankings", "   ", "empty response body"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.type) + ": " + c.body);
    auto p = make_event_parser(c.type);
    RequestRecord rec;
    EXPECT_EQ(p->parse_body(c.body, 1, &rec), ParseStatus::kMalformed);
    EXPECT_EQ(rec.error, ErrorKind::kMalformedSse);
    EXPECT_NE(rec.error_message.find(c.why), std::string::npos) << rec.error_message;
    EXPECT_TRUE(rec.chunks.empty());
  }
}

TEST(Rankings, AnEmptyListIsAnAnswer) {
  auto p = make_event_parser("cohere_rankings");
  RequestRecord rec;
  EXPECT_EQ(p->parse_body(R"({"results":[],"usage":{"prompt_tokens":3}})", 1, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(rec.output_items, 0);
  EXPECT_EQ(rec.usage.prompt_tokens, 3);
}

TEST(Rankings, OptionRules) {
  for (const char* type : {"nim_rankings", "hf_tei_rankings", "cohere_rankings"}) {
    SCOPED_TRACE(type);
    auto spec = find_spec(type);
    ASSERT_TRUE(spec.has_value());
    EXPECT_TRUE((*spec)->has(core::kCapQueryPassages));
    EXPECT_FALSE((*spec)->has(core::kCapStreams));
    EXPECT_FALSE((*spec)->has(core::kCapProducesTokens));
    EXPECT_TRUE(check_options(**spec, OptionFacts{}).has_value());
    OptionFacts rankings;
    rankings.rankings_flags = true;
    EXPECT_TRUE(check_options(**spec, rankings).has_value());
    auto refused = [&](OptionFacts f, const std::string& needle) {
      auto st = check_options(**spec, f);
      ASSERT_FALSE(st.has_value()) << needle;
      EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
      EXPECT_NE(st.error().message.find(needle), std::string::npos) << st.error().message;
      EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
    };
    OptionFacts f;
    f.streaming = true;
    refused(f, "--streaming");
    f = {};
    f.cache_bust = true;
    refused(f, "--cache-bust");
    f = {};
    f.multi_turn = true;
    refused(f, "without sessions");
    f = {};
    f.shared_prompts = true;
    refused(f, "--shared-system-prompt-length");
    f = {};
    f.isl_given = true;
    refused(f, "--rankings-query-prompt-token-mean");
    f = {};
    f.batch_size = 4;
    refused(f, "--batch-size");
  }
  // --rankings-* flags with a type that is not a rankings one.
  for (const char* type : {"chat", "embeddings", "nim_embeddings"}) {
    OptionFacts f;
    f.rankings_flags = true;
    auto st = check_options(**find_spec(type), f);
    ASSERT_FALSE(st.has_value()) << type;
    EXPECT_NE(st.error().message.find("cohere_rankings, hf_tei_rankings, nim_rankings"),
              std::string::npos)
        << st.error().message;
  }
}

TEST(EmbeddingsVariants, NimEmbeddingsSendsOpenAiBodyAndBatches) {
  TurnPayload t;
  t.messages = {{"user", "one"}, {"user", "two"}};
  EXPECT_EQ(make("nim_embeddings", R"({"input_type":"query","truncate":"END"})")->render_body(t),
            R"({"model":"rr","input":["one","two"],"input_type":"query","truncate":"END"})");
  auto spec = find_spec("nim_embeddings");
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ((*spec)->metrics_title, "NIM Embeddings Metrics");
  OptionFacts f;
  f.batch_size = 8;
  EXPECT_TRUE(check_options(**spec, f).has_value());
  f.streaming = true;
  EXPECT_FALSE(check_options(**spec, f).has_value());
  RequestRecord rec;
  EXPECT_EQ(
      make_event_parser("nim_embeddings")
          ->parse_body(
              R"({"object":"list","data":[{"index":0,"embedding":[0.5]}],"usage":{"prompt_tokens":2,"total_tokens":2}})",
              1, &rec),
      ParseStatus::kOk);
  EXPECT_EQ(rec.output_items, 1);
  EXPECT_EQ(rec.usage.prompt_tokens, 2);
}

TEST(EmbeddingsVariants, ChatEmbeddingsSendsOneUserMessage) {
  auto e = make("chat_embeddings");
  TurnPayload one;
  one.messages = {{"user", "embed \"me\""}};
  EXPECT_EQ(
      e->render_body(one),
      R"({"messages":[{"role":"user","content":"embed \"me\""}],"model":"rr","stream":false})");
  TurnPayload batch;
  batch.messages = {{"system", "sys"}, {"user", "a"}, {"user", "b"}};
  EXPECT_EQ(
      e->render_body(batch),
      R"({"messages":[{"role":"system","content":"sys"},{"role":"user","content":)"
      R"([{"type":"text","text":"a"},{"type":"text","text":"b"}]}],"model":"rr","stream":false})");
  TurnPayload none;
  EXPECT_EQ(e->render_body(none), R"({"messages":[],"model":"rr","stream":false})");
  auto over = make("chat_embeddings", R"({"stream":true,"encoding_format":"float"})");
  EXPECT_EQ(over->render_body(one),
            R"({"messages":[{"role":"user","content":"embed \"me\""}],"model":"rr","stream":true,)"
            R"("encoding_format":"float"})");
  auto spec = find_spec("chat_embeddings");
  ASSERT_TRUE(spec.has_value());
  OptionFacts f;
  f.shared_prompts = true;  // the system prompt is a message of its own
  f.batch_size = 3;
  EXPECT_TRUE(check_options(**spec, f).has_value());
  f.multi_turn = true;
  EXPECT_FALSE(check_options(**spec, f).has_value());
  f = {};
  f.cache_bust = true;
  EXPECT_FALSE(check_options(**spec, f).has_value());
}

}  // namespace
}  // namespace servebench::endpoints
