#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

using nlohmann::json;
using record::ErrorKind;
using record::RequestRecord;

std::unique_ptr<Endpoint> make(EndpointOptions o) {
  auto e = make_endpoint("embeddings", o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return std::move(*e);
}

TurnPayload batch(std::vector<std::string> texts) {
  TurnPayload t;
  for (auto& s : texts) t.messages.push_back({"user", std::move(s)});
  t.max_output_tokens = 99;  // not an embeddings parameter: never sent
  return t;
}

TEST(Embeddings, BodyIsModelThenTheBatchOfTexts) {
  EndpointOptions o;
  o.model = "BAAI/bge";
  o.streaming = false;
  EXPECT_EQ(make(o)->render_body(batch({"one", "two \"2\"", "three\n", "four"})),
            "{\"model\":\"BAAI/bge\",\"input\":[\"one\",\"two \\\"2\\\"\",\"three\\n\",\"four\"]}");
  TurnPayload t = batch({"x"});
  t.model = "other";
  EXPECT_EQ(make(o)->render_body(t), "{\"model\":\"other\",\"input\":[\"x\"]}");
}

TEST(Embeddings, ExtrasAppendInOrderAndOverride) {
  EndpointOptions o;
  o.model = "m";
  o.extra_inputs_json = R"({"encoding_format":"float","dimensions":8,"model":"z"})";
  auto e = make(o);
  EXPECT_EQ(e->render_body(batch({"a"})),
            "{\"input\":[\"a\"],\"encoding_format\":\"float\",\"dimensions\":8,\"model\":\"z\"}");
  // A turn's own extras come last and win over --extra-inputs.
  auto turn_extras = BodyExtras::parse(R"({"dimensions":4,"user":"u"})", "extra");
  ASSERT_TRUE(turn_extras.has_value());
  TurnPayload t = batch({"a"});
  t.extras = &*turn_extras;
  EXPECT_EQ(e->render_body(t),
            "{\"input\":[\"a\"],\"encoding_format\":\"float\",\"model\":\"z\",\"dimensions\":4,"
            "\"user\":\"u\"}");
}

TEST(Embeddings, ParserCountsVectorsAndReadsUsage) {
  auto p = make_event_parser("embeddings");
  ASSERT_NE(p, nullptr);
  RequestRecord rec;
  const std::string body =
      R"({"id":"embd-1","object":"list","created":1,"model":"m","data":[)"
      R"({"index":0,"object":"embedding","embedding":[0.1,-0.2]},)"
      R"({"index":1,"object":"embedding","embedding":[0.3,0.4]},)"
      R"({"index":2,"object":"embedding","embedding":"AAAA"}],)"
      R"("usage":{"prompt_tokens":12,"total_tokens":12,"completion_tokens":0,"prompt_tokens_details":null}})";
  EXPECT_EQ(p->parse_body(body, 77, &rec), ParseStatus::kOk);
  EXPECT_TRUE(rec.ok()) << rec.error_message;
  EXPECT_EQ(rec.output_items, 3);
  EXPECT_EQ(rec.usage.prompt_tokens, 12);
  EXPECT_EQ(rec.usage.total_tokens, 12);
  EXPECT_EQ(rec.usage.completion_tokens, -1);
  EXPECT_TRUE(rec.output_text.empty());
  ASSERT_EQ(rec.chunks.size(), 1u);
  EXPECT_EQ(rec.chunks[0].kind, record::ChunkKind::kEmpty);  // no content: no TTFT
  EXPECT_EQ(rec.chunks[0].recv_ns, 77);
}

TEST(Embeddings, ErrorObjectsAreServerErrors) {
  for (const std::string body :
       {R"({"error":{"message":"model overloaded","type":"x","code":503}})",
        R"({"object":"error","message":"model overloaded","code":400})"}) {
    auto p = make_event_parser("embeddings");
    RequestRecord rec;
    EXPECT_EQ(p->parse_body(body, 1, &rec), ParseStatus::kServerError) << body;
    EXPECT_EQ(rec.error, ErrorKind::kServerErrorEvent);
    EXPECT_NE(rec.error_message.find("model overloaded"), std::string::npos) << rec.error_message;
    EXPECT_EQ(rec.output_items, -1);
  }
  // A null error member is no error.
  auto p = make_event_parser("embeddings");
  RequestRecord rec;
  EXPECT_EQ(p->parse_body(R"({"error":null,"data":[{"embedding":[1]}]})", 1, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(rec.output_items, 1);
}

TEST(Embeddings, MalformedBodies) {
  for (const std::string body : {"", "{\"data\":[{\"embedding\":[0.1,", "[1,2]",
                                 "{\"object\":\"list\"}", "{\"data\":[]} trailing"}) {
    auto p = make_event_parser("embeddings");
    RequestRecord rec;
    EXPECT_EQ(p->parse_body(body, 1, &rec), ParseStatus::kMalformed) << body;
    EXPECT_EQ(rec.error, ErrorKind::kMalformedSse) << body;
    EXPECT_FALSE(rec.error_message.empty());
    EXPECT_EQ(rec.error_message.find('\n'), std::string::npos);
    EXPECT_EQ(rec.output_items, -1) << body;
  }
}

TEST(Embeddings, SseErrorEventIsAServerError) {
  auto p = make_event_parser("embeddings");
  RequestRecord rec;
  EXPECT_EQ(p->parse_event(SseEventView{"error", "overloaded"}, 1, &rec),
            ParseStatus::kServerError);
  EXPECT_EQ(rec.error, ErrorKind::kServerErrorEvent);
}

TEST(EventParser, ChatSseErrorEventNameIsSeen) {
  // The parser receives the whole event: an `event: error` is an error whatever its data says.
  auto p = make_event_parser("chat");
  RequestRecord rec;
  EXPECT_EQ(
      p->parse_event(SseEventView{"error", R"({"choices":[{"delta":{"content":"x"}}]})"}, 1, &rec),
      ParseStatus::kServerError);
  EXPECT_EQ(rec.error, ErrorKind::kServerErrorEvent);
  EXPECT_TRUE(rec.chunks.empty());
  RequestRecord ok;
  EXPECT_EQ(
      p->parse_event(SseEventView{"message", R"({"choices":[{"delta":{"content":"x"}}]})"}, 1, &ok),
      ParseStatus::kOk);
  EXPECT_EQ(ok.output_text, "x");
}

TEST(BodyExtras, KeepOrderAndRenderOnce) {
  auto e = BodyExtras::parse(R"({"z":1,"a":{"y":2,"b":[3]},"m":"s"})", "--extra-inputs");
  ASSERT_TRUE(e.has_value());
  std::string out;
  bool first = true;
  e->append_members(&out, &first);
  EXPECT_EQ(out, R"("z":1,"a":{"y":2,"b":[3]},"m":"s")");
  EXPECT_TRUE(e->has("a"));
  EXPECT_FALSE(e->has("b"));
  auto bad = BodyExtras::parse("[1]", "--input-file 'x': extra");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("--input-file 'x': extra"), std::string::npos);
}

TEST(BodyExtras, MergeKeepsTheBodysKeyOrder) {
  EXPECT_EQ(merge_body_extras(R"({"z":1,"messages":[],"a":2})", R"({"a":3,"tools":[1]})"),
            R"({"z":1,"messages":[],"a":3,"tools":[1]})");
  EXPECT_EQ(merge_body_extras(R"({"z":1})", ""), R"({"z":1})");
  EXPECT_EQ(merge_body_extras("[1]", R"({"a":1})"), "[1]");
}

TEST(Endpoint, ChatTurnExtrasWinAndKeepOrder) {
  EndpointOptions o;
  o.model = "m";
  o.streaming = true;
  o.extra_inputs_json = R"({"temperature":0.5,"top_p":0.9})";
  auto e = make_endpoint("chat", o);
  ASSERT_TRUE(e.has_value());
  auto extras = BodyExtras::parse(R"({"top_p":0.1,"stream":false,"seed":7})", "extra");
  ASSERT_TRUE(extras.has_value());
  TurnPayload t;
  t.messages = {{"user", "q"}};
  t.max_output_tokens = 4;
  t.extras = &*extras;
  EXPECT_EQ(
      (*e)->render_body(t),
      "{\"messages\":[{\"role\":\"user\",\"content\":\"q\"}],\"model\":\"m\",\"stream_options\":"
      "{\"include_usage\":true},\"max_completion_tokens\":4,\"temperature\":0.5,\"top_p\":0.1,"
      "\"stream\":false,\"seed\":7}");
}

}  // namespace
}  // namespace servebench::endpoints
