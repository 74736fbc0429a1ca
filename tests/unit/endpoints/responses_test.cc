// `responses`: the body renderer and the parser, on payloads captured from llama-server 3.21.1
// (data/llama_responses_*) and on events written after OpenAI's Responses API reference.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "endpoints/registry.h"
#include "unit/endpoints/chatlike_test_util.h"

namespace servebench::endpoints {
namespace {

using nlohmann::json;
using record::ChunkKind;
using record::ErrorKind;
using namespace testutil;

const char kLlamaText[] = "}\r\n\r\n\r\n\r\n Ripfrac ponder(remote camper";

std::unique_ptr<Endpoint> make(EndpointOptions o) {
  auto e = make_endpoint("responses", o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return std::move(*e);
}

TurnPayload history() {
  TurnPayload t;
  t.messages = {{"system", "You are terse."},
                {"user", "Call me Ishmael. Some years ago"},
                {"assistant", "never mind how long"},
                {"user", "precisely, having little money"}};
  t.max_output_tokens = 6;
  return t;
}

TEST(ResponsesRender, SystemPromptIsInstructionsAndHistoryIsMessageItems) {
  EndpointOptions o;
  o.model = "tiny";
  o.streaming = true;
  // The body llama-server answered with data/llama_responses_stream.sse.
  EXPECT_EQ(make(o)->render_body(history()),
            "{\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":"
            "\"input_text\",\"text\":\"Call me Ishmael. Some years ago\"}]},{\"type\":\"message\","
            "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"never mind "
            "how long\"}]},{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":"
            "\"input_text\",\"text\":\"precisely, having little money\"}]}],\"model\":\"tiny\","
            "\"stream\":true,\"instructions\":\"You are terse.\",\"max_output_tokens\":6}");
}

TEST(ResponsesRender, NoSystemNoCountAndAPerTurnModel) {
  EndpointOptions o;
  o.model = "m";
  TurnPayload t;
  t.messages = {{"", "hi \"there\""}};
  t.model = "other";
  const json body = json::parse(make(o)->render_body(t));
  EXPECT_FALSE(body.contains("instructions"));
  EXPECT_FALSE(body.contains("max_output_tokens"));
  EXPECT_FALSE(body.contains("stream_options"));
  EXPECT_EQ(body["model"], "other");
  EXPECT_EQ(body["stream"], false);
  EXPECT_EQ(body["input"][0]["role"], "user");
  EXPECT_EQ(body["input"][0]["content"][0]["text"], "hi \"there\"");
}

TEST(ResponsesRender, ExtrasReplaceStandardKeysAndComeLastInOrder) {
  EndpointOptions o;
  o.model = "m";
  o.extra_inputs_json = R"({"max_output_tokens":9,"reasoning":{"effort":"low"},"store":false})";
  BodyExtras row = *BodyExtras::parse(R"({"store":true,"instructions":"row"})", "row");
  TurnPayload t = history();
  t.extras = &row;
  const std::string body = make(o)->render_body(t);
  EXPECT_EQ(body.substr(body.find("\"stream\"")),
            "\"stream\":false,\"max_output_tokens\":9,\"reasoning\":{\"effort\":\"low\"},"
            "\"store\":true,\"instructions\":\"row\"}");
  EXPECT_TRUE(json::accept(body));
}

TEST(ResponsesRender, BadExtraInputsAreAUsageError) {
  EndpointOptions o;
  o.extra_inputs_json = "[1]";
  auto e = make_endpoint("responses", o);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("--extra-inputs"), std::string::npos);
}

TEST(ResponsesParse, LlamaServerBody) {
  ParseStatus s;
  auto rec = parse_whole("responses", read_data("llama_responses_body.json"), &s);
  EXPECT_EQ(s, ParseStatus::kOk);
  EXPECT_EQ(rec.error, ErrorKind::kNone);
  EXPECT_EQ(kinds(rec), (std::vector<ChunkKind>{ChunkKind::kContent}));
  EXPECT_EQ(rec.output_text, kLlamaText);
  EXPECT_EQ(rec.usage.prompt_tokens, 49);
  EXPECT_EQ(rec.usage.completion_tokens, 6);
  EXPECT_EQ(rec.usage.total_tokens, 55);
  EXPECT_EQ(rec.usage.prompt_cache_read_tokens, 48);
  EXPECT_EQ(rec.finish_reason, "completed");
}

TEST(ResponsesParse, LlamaServerStreamCountsEachDeltaOnce) {
  for (size_t piece : {size_t{1} << 20, size_t{7}, size_t{1}}) {
    SCOPED_TRACE(piece);
    auto r = run_file("responses", "llama_responses_stream.sse", piece);
    ASSERT_EQ(r.statuses.size(), 14u);  // every event of the capture
    EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
    EXPECT_EQ(kinds(r.rec), std::vector<ChunkKind>(6, ChunkKind::kContent));
    EXPECT_EQ(r.rec.output_text, kLlamaText);  // not repeated from *.done or response.completed
    EXPECT_EQ(chunk_text(r.rec, 1), " Rip");
    EXPECT_EQ(r.rec.usage.prompt_tokens, 49);
    EXPECT_EQ(r.rec.usage.completion_tokens, 6);
    EXPECT_EQ(r.rec.usage.prompt_cache_read_tokens, 48);
    EXPECT_EQ(r.rec.error, ErrorKind::kNone);
  }
}

TEST(ResponsesParse, LlamaServerErrorBodyIsAServerError) {
  ParseStatus s;
  auto rec = parse_whole("responses", read_data("llama_responses_error.json"), &s);
  EXPECT_EQ(s, ParseStatus::kServerError);
  EXPECT_EQ(rec.error, ErrorKind::kServerErrorEvent);
  EXPECT_NE(rec.error_message.find("max_tokens"), std::string::npos);
  EXPECT_TRUE(rec.chunks.empty());
}

TEST(ResponsesParse, ReasoningSummaryAndToolArgumentDeltas) {
  std::string s =
      sse("response.reasoning_summary_text.delta",
          R"({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Plan: "})") +
      sse("response.reasoning_text.delta",
          R"({"delta":"think","type":"response.reasoning_text.delta","item_id":"rs_1"})") +
      sse("response.output_text.delta",
          R"({"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi"})") +
      sse("response.function_call_arguments.delta",
          R"({"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{\"city\":"})") +
      sse("response.function_call_arguments.done",
          R"({"type":"response.function_call_arguments.done","item_id":"fc_1","arguments":"{\"city\":\"X\"}"})") +
      sse("response.completed",
          R"({"type":"response.completed","response":{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"Hi"}]}],"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":7,"output_tokens_details":{"reasoning_tokens":3},"total_tokens":17}}})");
  auto r = run_bytes("responses", s);
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kReasoning, ChunkKind::kReasoning,
                                                  ChunkKind::kContent, ChunkKind::kToolCall}));
  EXPECT_EQ(r.rec.reasoning_text, "Plan: think");
  EXPECT_EQ(r.rec.output_text, "Hi{\"city\":");
  EXPECT_EQ(r.rec.usage.reasoning_tokens, 3);
  EXPECT_EQ(r.rec.usage.prompt_cache_read_tokens, 4);
  EXPECT_EQ(r.rec.usage.total_tokens, 17);
  EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
}

TEST(ResponsesParse, IncompleteResponseEndsTheStreamWithItsReason) {
  auto r = run_bytes(
      "responses",
      sse("response.output_text.delta", R"({"type":"response.output_text.delta","delta":"a"})") +
          sse("response.incomplete",
              R"({"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":3,"output_tokens":1,"total_tokens":4}}})"));
  EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
  EXPECT_EQ(r.rec.finish_reason, "max_output_tokens");
  EXPECT_EQ(r.rec.usage.completion_tokens, 1);
}

TEST(ResponsesParse, ErrorAndFailedEventsAreServerErrors) {
  auto r = run_bytes(
      "responses",
      sse("response.output_text.delta", R"({"type":"response.output_text.delta","delta":"a"})") +
          sse("error",
              R"({"type":"error","code":"server_error","message":"The server had an error","param":null})"));
  EXPECT_EQ(r.statuses.back(), ParseStatus::kServerError);
  EXPECT_EQ(r.rec.error, ErrorKind::kServerErrorEvent);
  EXPECT_EQ(r.rec.output_text, "a");
  auto f = run_bytes(
      "responses",
      sse("response.failed",
          R"({"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"model crashed"},"usage":null}})"));
  EXPECT_EQ(f.statuses.back(), ParseStatus::kServerError);
  EXPECT_NE(f.rec.error_message.find("model crashed"), std::string::npos);
  // Without a type in the data, the SSE event name still marks an error.
  auto n = run_bytes("responses", sse("error", R"({"message":"overloaded"})"));
  EXPECT_EQ(n.rec.error, ErrorKind::kServerErrorEvent);
}

TEST(ResponsesParse, WholeBodyWithReasoningAndFunctionCallItems) {
  const std::string body =
      R"({"id":"resp_1","object":"response","status":"completed","error":null,"output":[)"
      R"({"content":[{"type":"reasoning_text","text":"think"}],"summary":[{"type":"summary_text","text":"Plan. "}],"type":"reasoning","id":"rs_1"},)"
      R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi","annotations":[]},{"type":"refusal","refusal":"no"}]},)"
      R"({"type":"function_call","name":"get_weather","arguments":"{\"city\":\"X\"}","call_id":"c1"}],)"
      R"("usage":{"input_tokens":5,"output_tokens":9,"total_tokens":14}})";
  ParseStatus s;
  auto rec = parse_whole("responses", body, &s);
  EXPECT_EQ(s, ParseStatus::kOk);
  EXPECT_EQ(kinds(rec), (std::vector<ChunkKind>{ChunkKind::kContent}));
  EXPECT_EQ(rec.output_text, "Higet_weather{\"city\":\"X\"}");
  EXPECT_EQ(rec.reasoning_text, "Plan. think");
  EXPECT_EQ(rec.usage.total_tokens, 14);
}

TEST(ResponsesParse, MalformedPayloadAppendsNothing) {
  auto r = run_bytes("responses", sse("response.output_text.delta",
                                      R"({"type":"response.output_text.delta","delta":"a")"));
  EXPECT_EQ(r.statuses.back(), ParseStatus::kMalformed);
  EXPECT_EQ(r.rec.error, ErrorKind::kMalformedSse);
  EXPECT_TRUE(r.rec.chunks.empty());
  EXPECT_TRUE(r.rec.output_text.empty());
}

TEST(ResponsesSpec, ChatLikeCapabilitiesAndAiperfNames) {
  auto spec = find_spec("responses");
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ((*spec)->default_path, "/v1/responses");
  EXPECT_EQ((*spec)->capabilities, core::kTextGenerationCaps | core::kCapMedia);  // images and audio
  EXPECT_EQ((*spec)->metrics_title, "LLM Metrics");
  EXPECT_EQ((*spec)->artifact_name, "openai-responses");
  EXPECT_EQ(credential_headers("responses", "sk-secret-1"),
            (std::vector<std::string>{"Authorization: Bearer sk-secret-1"}));
}

}  // namespace
}  // namespace servebench::endpoints
