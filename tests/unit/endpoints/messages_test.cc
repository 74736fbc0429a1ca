// `messages` (Anthropic): the body renderer, the credential headers and the parser, on payloads
// captured from llama-server 3.21.1 (data/llama_messages_*) and on events written after
// Anthropic's streaming reference.
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
  auto e = make_endpoint("messages", o);
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

TEST(MessagesRender, SystemIsTopLevelAndHistoryKeepsItsRoles) {
  EndpointOptions o;
  o.model = "tiny";
  o.streaming = true;
  EXPECT_EQ(make(o)->render_body(history()),
            "{\"messages\":[{\"role\":\"user\",\"content\":\"Call me Ishmael. Some years ago\"},"
            "{\"role\":\"assistant\",\"content\":\"never mind how long\"},{\"role\":\"user\","
            "\"content\":\"precisely, having little money\"}],\"model\":\"tiny\",\"stream\":true,"
            "\"system\":\"You are terse.\",\"max_tokens\":6}");
}

TEST(MessagesRender, MaxTokensDefaultsTo1024AndExtrasOverrideIt) {
  EndpointOptions o;
  o.model = "m";
  TurnPayload t;
  t.messages = {{"user", "hi"}};
  json body = json::parse(make(o)->render_body(t));
  EXPECT_EQ(body["max_tokens"], 1024);
  EXPECT_FALSE(body.contains("system"));
  EXPECT_EQ(body["stream"], false);
  o.extra_inputs_json = R"({"max_tokens":7,"thinking":{"type":"enabled","budget_tokens":2048}})";
  const std::string s = make(o)->render_body(t);
  EXPECT_EQ(s.substr(s.find("\"stream\"")),
            "\"stream\":false,\"max_tokens\":7,\"thinking\":{\"type\":\"enabled\","
            "\"budget_tokens\":2048}}");
}

TEST(MessagesCredentials, ApiKeyGoesAsXApiKeyWithTheApiVersion) {
  EXPECT_EQ(
      credential_headers("messages", "sk-ant-secret"),
      (std::vector<std::string>{"x-api-key: sk-ant-secret", "anthropic-version: 2023-06-01"}));
  EXPECT_TRUE(credential_headers("messages", "").empty());
  EXPECT_EQ(credential_headers("chat", "k-123456"),
            (std::vector<std::string>{"Authorization: Bearer k-123456"}));
  EXPECT_EQ(credential_headers("no-such-type", "k-123456"),
            (std::vector<std::string>{"Authorization: Bearer k-123456"}));
}

TEST(MessagesParse, LlamaServerBodyNormalisesCachedInput) {
  ParseStatus s;
  auto rec = parse_whole("messages", read_data("llama_messages_body.json"), &s);
  EXPECT_EQ(s, ParseStatus::kOk);
  EXPECT_EQ(kinds(rec), (std::vector<ChunkKind>{ChunkKind::kContent}));
  EXPECT_EQ(rec.output_text, kLlamaText);
  // llama-server: input_tokens 21 not cached + cache_read_input_tokens 28 = a 49-token prompt.
  EXPECT_EQ(rec.usage.prompt_tokens, 49);
  EXPECT_EQ(rec.usage.prompt_cache_read_tokens, 28);
  EXPECT_EQ(rec.usage.prompt_cache_write_tokens, -1);
  EXPECT_EQ(rec.usage.completion_tokens, 6);
  EXPECT_EQ(rec.usage.total_tokens, 55);
  EXPECT_EQ(rec.finish_reason, "max_tokens");
}

TEST(MessagesParse, LlamaServerStream) {
  for (size_t piece : {size_t{1} << 20, size_t{5}, size_t{1}}) {
    SCOPED_TRACE(piece);
    auto r = run_file("messages", "llama_messages_stream.sse", piece);
    ASSERT_EQ(r.statuses.size(), 11u);
    EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
    EXPECT_EQ(kinds(r.rec), std::vector<ChunkKind>(6, ChunkKind::kContent));
    EXPECT_EQ(r.rec.output_text, kLlamaText);
    EXPECT_EQ(chunk_text(r.rec, 2), "frac");
    EXPECT_EQ(r.rec.usage.prompt_tokens, 49);  // 1 + 48 read from the cache
    EXPECT_EQ(r.rec.usage.prompt_cache_read_tokens, 48);
    EXPECT_EQ(r.rec.usage.completion_tokens, 6);  // message_delta's final count replaces 0
    EXPECT_EQ(r.rec.usage.total_tokens, 55);
    EXPECT_EQ(r.rec.finish_reason, "max_tokens");
    EXPECT_EQ(r.rec.error, ErrorKind::kNone);
  }
}

TEST(MessagesParse, ThinkingToolInputPingAndSignature) {
  std::string s =
      sse("message_start",
          R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude","stop_reason":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":50,"output_tokens":1}}})") +
      sse("ping", R"({"type": "ping"})") +
      sse("content_block_start",
          R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})") +
      sse("content_block_delta",
          R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me"}})") +
      sse("content_block_delta",
          R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}})") +
      sse("content_block_stop", R"({"type":"content_block_stop","index":0})") +
      sse("content_block_start",
          R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})") +
      sse("content_block_delta",
          R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}})") +
      sse("content_block_start",
          R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t1","name":"get_weather","input":{}}})") +
      sse("content_block_delta",
          R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}})") +
      sse("message_delta",
          R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":15}})") +
      sse("message_stop", R"({"type":"message_stop"})");
  auto r = run_bytes("messages", s);
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kReasoning, ChunkKind::kContent,
                                                  ChunkKind::kToolCall}));
  EXPECT_EQ(r.rec.reasoning_text, "Let me");
  EXPECT_EQ(r.rec.output_text, "Hi{\"city\":");
  EXPECT_EQ(r.rec.usage.prompt_tokens, 160);
  EXPECT_EQ(r.rec.usage.prompt_cache_read_tokens, 50);
  EXPECT_EQ(r.rec.usage.prompt_cache_write_tokens, 100);
  EXPECT_EQ(r.rec.usage.completion_tokens, 15);
  EXPECT_EQ(r.rec.usage.total_tokens, 175);
  EXPECT_EQ(r.rec.finish_reason, "tool_use");
  EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
}

TEST(MessagesParse, CumulativeMessageDeltaUsageReplacesEarlierCounts) {
  auto r = run_bytes(
      "messages",
      sse("message_start",
          R"({"type":"message_start","message":{"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":1}}})") +
          sse("message_delta",
              R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"cache_read_input_tokens":7,"output_tokens":3}})"));
  EXPECT_EQ(r.rec.usage.prompt_cache_read_tokens, 7);
  EXPECT_EQ(r.rec.usage.prompt_tokens, 17);  // the 10 uncached kept, the cache count replaced
  EXPECT_EQ(r.rec.usage.completion_tokens, 3);
}

TEST(MessagesParse, ErrorEventsAreServerErrors) {
  auto r = run_bytes(
      "messages",
      sse("content_block_delta",
          R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}})") +
          sse("error",
              R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
  EXPECT_EQ(r.statuses.back(), ParseStatus::kServerError);
  EXPECT_EQ(r.rec.error, ErrorKind::kServerErrorEvent);
  EXPECT_NE(r.rec.error_message.find("Overloaded"), std::string::npos);
  EXPECT_EQ(r.rec.output_text, "a");
  ParseStatus s;
  auto rec = parse_whole("messages", read_data("llama_messages_error.json"), &s);
  EXPECT_EQ(s, ParseStatus::kServerError);
  EXPECT_NE(rec.error_message.find("'messages' is required"), std::string::npos);
}

TEST(MessagesParse, WholeBodyWithThinkingAndToolUse) {
  const std::string body =
      R"({"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[)"
      R"({"type":"thinking","thinking":"hmm","signature":"abc"},{"type":"text","text":"Hi"},)"
      R"({"type":"tool_use","id":"t1","name":"get_weather","input":{"city": "X"}}],)"
      R"("stop_reason":"tool_use","usage":{"input_tokens":4,"cache_creation_input_tokens":2,"output_tokens":8}})";
  ParseStatus s;
  auto rec = parse_whole("messages", body, &s);
  EXPECT_EQ(s, ParseStatus::kOk);
  EXPECT_EQ(kinds(rec), (std::vector<ChunkKind>{ChunkKind::kContent}));
  EXPECT_EQ(rec.output_text, "Hi{\"city\": \"X\"}");
  EXPECT_EQ(rec.reasoning_text, "hmm");
  EXPECT_EQ(rec.usage.prompt_tokens, 6);
  EXPECT_EQ(rec.usage.prompt_cache_write_tokens, 2);
  EXPECT_EQ(rec.usage.total_tokens, 14);
}

TEST(MessagesParse, MalformedPayloadAppendsNothing) {
  auto r = run_bytes(
      "messages", sse("content_block_delta",
                      R"({"type":"content_block_delta","delta":{"type":"text_delta","text":"a"})"));
  EXPECT_EQ(r.statuses.back(), ParseStatus::kMalformed);
  EXPECT_EQ(r.rec.error, ErrorKind::kMalformedSse);
  EXPECT_TRUE(r.rec.chunks.empty());
}

TEST(MessagesSpec, ChatLikeCapabilitiesAndAiperfNames) {
  auto spec = find_spec("messages");
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ((*spec)->default_path, "/v1/messages");
  EXPECT_EQ((*spec)->capabilities, core::kTextGenerationCaps | core::kCapMedia);  // images
  EXPECT_EQ((*spec)->metrics_title, "LLM Metrics");
  EXPECT_EQ((*spec)->artifact_name, "openai-messages");
}

}  // namespace
}  // namespace servebench::endpoints
