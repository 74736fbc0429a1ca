// Usage normalisation across vendors (usage_fields.h), through the chat parser as a server's
// body reaches it: OpenAI details, DeepSeek cache hit/miss, Gemini usageMetadata, Anthropic's
// disjoint input counts, Bedrock camelCase, Cohere envelopes, Mistral audio seconds; synonym
// precedence; per-count merging across a stream; and tool calls counted as output text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "endpoints/endpoint.h"
#include "endpoints/usage_fields.h"
#include "transport/sse_parser.h"

namespace servebench::endpoints {
namespace {

using record::ChunkKind;
using record::RequestRecord;
using record::Usage;

// The usage the chat parser records for one non-streamed body around `usage_json`.
Usage body_usage(const std::string& usage_key, const std::string& usage_json) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  const std::string body = R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],")" +
                           usage_key + "\":" + usage_json + "}";
  EXPECT_EQ(p->parse_body(body, 1, &rec), ParseStatus::kOk) << body << " " << rec.error_message;
  return rec.usage;
}
Usage usage_of(const std::string& usage_json) { return body_usage("usage", usage_json); }

std::string read_data(const std::string& name) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  const std::string dir = src ? std::string(src) : std::string(SERVEBENCH_TEST_SOURCE_DIR);
  std::ifstream in(dir + "/tests/unit/endpoints/data/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Captured from llama.cpp's llama-server (the pinned 3.21.1) on the second identical request:
// 40 of the 41 prompt tokens came from its prefix cache (also in its own `timings.cache_n`).
TEST(UsageFields, LlamaServerReportsPrefixCacheHits) {
  auto p = make_event_parser("chat");
  RequestRecord body;
  const std::string json = read_data("llamacpp_chat_cached_body.json");
  ASSERT_FALSE(json.empty());
  ASSERT_EQ(p->parse_body(json, 1, &body), ParseStatus::kOk) << body.error_message;
  EXPECT_EQ(body.usage.prompt_tokens, 41);
  EXPECT_EQ(body.usage.prompt_cache_read_tokens, 40);
  EXPECT_EQ(body.usage.completion_tokens, 3);
  EXPECT_EQ(body.usage.total_tokens, 44);

  RequestRecord stream;
  transport::SseParser sse;
  sse.feed(read_data("llamacpp_chat_cached_stream.sse"), 2, [&](const transport::SseEvent& ev) {
    p->parse_event(ev.data, ev.recv_ns, &stream);
  });
  sse.finish(3, [&](const transport::SseEvent& ev) { p->parse_event(ev.data, ev.recv_ns, &stream); });
  EXPECT_EQ(stream.usage.prompt_tokens, 41);
  EXPECT_EQ(stream.usage.prompt_cache_read_tokens, 40);
  EXPECT_EQ(stream.usage.completion_tokens, 3);
  ASSERT_FALSE(stream.chunks.empty());
  EXPECT_EQ(stream.chunks.back().kind, ChunkKind::kUsage);
}

TEST(UsageFields, OpenAiDetailsFillEveryCount) {
  const Usage u = usage_of(R"({"prompt_tokens":100,"completion_tokens":40,"total_tokens":140,
      "prompt_tokens_details":{"cached_tokens":64,"audio_tokens":7},
      "completion_tokens_details":{"reasoning_tokens":12,"audio_tokens":3,
                                   "accepted_prediction_tokens":5,"rejected_prediction_tokens":2}})");
  EXPECT_EQ(u.prompt_tokens, 100);
  EXPECT_EQ(u.completion_tokens, 40);
  EXPECT_EQ(u.total_tokens, 140);
  EXPECT_EQ(u.prompt_cache_read_tokens, 64);
  EXPECT_EQ(u.prompt_audio_tokens, 7);
  EXPECT_EQ(u.reasoning_tokens, 12);
  EXPECT_EQ(u.completion_audio_tokens, 3);
  EXPECT_EQ(u.accepted_prediction_tokens, 5);
  EXPECT_EQ(u.rejected_prediction_tokens, 2);
  EXPECT_EQ(u.prompt_cache_write_tokens, -1);
  EXPECT_EQ(u.prompt_cache_miss_tokens, -1);
  EXPECT_EQ(u.tool_use_prompt_tokens, -1);
  EXPECT_LT(u.prompt_audio_seconds, 0);
}

TEST(UsageFields, NullDetailsAndNonNumbersCountAsAbsent) {
  // vLLM writes prompt_tokens_details:null; Mistral writes prompt_audio_seconds:{}.
  const Usage u = usage_of(R"({"prompt_tokens":9,"completion_tokens":"7","total_tokens":null,
      "prompt_tokens_details":null,"completion_tokens_details":{"reasoning_tokens":null},
      "prompt_audio_seconds":{}})");
  EXPECT_EQ(u.prompt_tokens, 9);
  EXPECT_EQ(u.completion_tokens, -1);
  EXPECT_EQ(u.total_tokens, -1);
  EXPECT_EQ(u.prompt_cache_read_tokens, -1);
  EXPECT_EQ(u.reasoning_tokens, -1);
  EXPECT_LT(u.prompt_audio_seconds, 0);
}

TEST(UsageFields, DeepSeekCacheHitsAndMisses) {
  const Usage u = usage_of(R"({"prompt_tokens":50,"completion_tokens":5,"total_tokens":55,
      "prompt_cache_hit_tokens":32,"prompt_cache_miss_tokens":18,
      "completion_tokens_details":{"reasoning_tokens":3}})");
  EXPECT_EQ(u.prompt_tokens, 50);
  EXPECT_EQ(u.prompt_cache_read_tokens, 32);
  EXPECT_EQ(u.prompt_cache_miss_tokens, 18);
  EXPECT_EQ(u.prompt_cache_read_tokens + u.prompt_cache_miss_tokens, u.prompt_tokens);
  EXPECT_EQ(u.reasoning_tokens, 3);
}

TEST(UsageFields, GeminiUsageMetadataAtTheTopOrInsideUsage) {
  const std::string meta = R"({"promptTokenCount":20,"candidatesTokenCount":8,"totalTokenCount":41,
      "thoughtsTokenCount":6,"cachedContentTokenCount":10,"toolUsePromptTokenCount":7,
      "promptTokensDetails":[{"modality":"TEXT","tokenCount":20}]})";
  for (const Usage& u : {body_usage("usageMetadata", meta), usage_of(R"({"usageMetadata":)" + meta + "}")}) {
    EXPECT_EQ(u.prompt_tokens, 20);
    EXPECT_EQ(u.completion_tokens, 8);
    EXPECT_EQ(u.total_tokens, 41);
    EXPECT_EQ(u.reasoning_tokens, 6);
    EXPECT_EQ(u.prompt_cache_read_tokens, 10);
    EXPECT_EQ(u.tool_use_prompt_tokens, 7);
  }
  // A key at the usage object's own level wins over the lifted envelope.
  const Usage both = usage_of(R"({"usageMetadata":{"promptTokenCount":20},"prompt_tokens":21})");
  EXPECT_EQ(both.prompt_tokens, 21);
  const Usage before = usage_of(R"({"prompt_tokens":21,"usageMetadata":{"promptTokenCount":20}})");
  EXPECT_EQ(before.prompt_tokens, 21);
}

TEST(UsageFields, AnthropicInputCountsAddTheCacheBack) {
  // Anthropic's input_tokens is the uncached remainder: the prompt is input + reads + writes.
  const Usage u = usage_of(R"({"input_tokens":10,"output_tokens":30,
      "cache_read_input_tokens":200,"cache_creation_input_tokens":50,
      "cache_creation":{"ephemeral_5m_input_tokens":50,"ephemeral_1h_input_tokens":0}})");
  EXPECT_EQ(u.prompt_tokens, 260);
  EXPECT_EQ(u.completion_tokens, 30);
  EXPECT_EQ(u.prompt_cache_read_tokens, 200);
  EXPECT_EQ(u.prompt_cache_write_tokens, 50);
  // Without cache fields input_tokens is the prompt as it is (Cohere, DashScope).
  EXPECT_EQ(usage_of(R"({"input_tokens":10,"output_tokens":3})").prompt_tokens, 10);
  // An OpenAI-shaped prompt_tokens already includes its cached subset: nothing is added.
  const Usage subset =
      usage_of(R"({"prompt_tokens":100,"cache_read_input_tokens":40,"completion_tokens":1})");
  EXPECT_EQ(subset.prompt_tokens, 100);
}

TEST(UsageFields, BedrockCamelCase) {
  const Usage u = usage_of(R"({"inputTokens":5,"outputTokens":6,"totalTokens":19,
      "cacheReadInputTokens":4,"cacheWriteInputTokens":4})");
  EXPECT_EQ(u.prompt_tokens, 13);
  EXPECT_EQ(u.completion_tokens, 6);
  EXPECT_EQ(u.total_tokens, 19);
  EXPECT_EQ(u.prompt_cache_read_tokens, 4);
  EXPECT_EQ(u.prompt_cache_write_tokens, 4);
}

TEST(UsageFields, CohereEnvelopes) {
  const Usage v2 = usage_of(R"({"billed_units":{"input_tokens":1,"output_tokens":1},
      "tokens":{"input_tokens":12,"output_tokens":4},"cached_tokens":6})");
  EXPECT_EQ(v2.prompt_tokens, 12) << "raw tokens, not billed units";
  EXPECT_EQ(v2.completion_tokens, 4);
  EXPECT_EQ(v2.prompt_cache_read_tokens, 6);
  const Usage v1 = usage_of(R"({"meta":{"tokens":{"input_tokens":8,"output_tokens":2},"cached_tokens":3}})");
  EXPECT_EQ(v1.prompt_tokens, 8);
  EXPECT_EQ(v1.completion_tokens, 2);
  EXPECT_EQ(v1.prompt_cache_read_tokens, 3);
}

TEST(UsageFields, MistralAudioSeconds) {
  const Usage u = usage_of(R"({"prompt_tokens":4,"completion_tokens":2,"total_tokens":6,"prompt_audio_seconds":2.5})");
  EXPECT_DOUBLE_EQ(u.prompt_audio_seconds, 2.5);
}

TEST(UsageFields, FirstSynonymWinsWhateverTheKeyOrder) {
  EXPECT_EQ(usage_of(R"({"output_tokens":2,"completion_tokens":1})").completion_tokens, 1);
  EXPECT_EQ(usage_of(R"({"candidatesTokenCount":3,"output_tokens":2})").completion_tokens, 2);
  EXPECT_EQ(usage_of(R"({"cacheReadInputTokens":4,"cachedContentTokenCount":3})").prompt_cache_read_tokens, 3);
  EXPECT_EQ(usage_of(R"({"prompt_cache_hit_tokens":2,"cache_read_input_tokens":1})").prompt_cache_read_tokens, 1);
  // The nested OpenAI detail beats every top-level cache key.
  EXPECT_EQ(usage_of(R"({"cache_read_input_tokens":1,"prompt_tokens_details":{"cached_tokens":9}})")
                .prompt_cache_read_tokens,
            9);
  EXPECT_EQ(usage_of(R"({"output_tokens_details":{"reasoning_tokens":4},"thoughtsTokenCount":5})")
                .reasoning_tokens,
            4);
  EXPECT_EQ(usage_of(R"({"input_tokens_details":{"cached_tokens":2},"prompt_tokens_details":{"cached_tokens":3}})")
                .prompt_cache_read_tokens,
            3);
}

TEST(UsageFields, EachCountKeepsItsLastReportedValueOverAStream) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  // Input counts early (as Anthropic's message_start), output counts at the end.
  EXPECT_EQ(p->parse_event(R"({"choices":[{"delta":{"content":"a"}}],"usage":{"input_tokens":7,"cache_read_input_tokens":3}})", 1, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(p->parse_event(R"({"choices":[],"usage":{"output_tokens":12}})", 2, &rec), ParseStatus::kOk);
  EXPECT_EQ(rec.usage.prompt_tokens, 10);
  EXPECT_EQ(rec.usage.prompt_cache_read_tokens, 3);
  EXPECT_EQ(rec.usage.completion_tokens, 12);
  EXPECT_EQ(rec.chunks.back().kind, ChunkKind::kUsage);
  EXPECT_EQ(p->parse_event(R"({"choices":[],"usage":{"output_tokens":13}})", 3, &rec), ParseStatus::kOk);
  EXPECT_EQ(rec.usage.completion_tokens, 13);
  // An event with only a cache count is a usage event too.
  RequestRecord rec2;
  EXPECT_EQ(p->parse_event(R"({"choices":[],"usage":{"prompt_cache_miss_tokens":4}})", 4, &rec2), ParseStatus::kOk);
  EXPECT_EQ(rec2.chunks.back().kind, ChunkKind::kUsage);
  EXPECT_EQ(rec2.usage.prompt_cache_miss_tokens, 4);
}

TEST(UsageFields, MergeAndAnyUsage) {
  Usage a, b;
  EXPECT_FALSE(any_usage(a));
  b.tool_use_prompt_tokens = 3;
  EXPECT_TRUE(any_usage(b));
  a.prompt_tokens = 5;
  a.tool_use_prompt_tokens = 1;
  merge_usage(b, &a);
  EXPECT_EQ(a.prompt_tokens, 5);
  EXPECT_EQ(a.tool_use_prompt_tokens, 3);
}

TEST(ToolCalls, StreamedToolCallDeltasAreOutputText) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  p->parse_event(R"({"choices":[{"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]})", 1, &rec);
  p->parse_event(R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}}]})", 2, &rec);
  p->parse_event(R"({"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]})", 3, &rec);
  ASSERT_EQ(rec.chunks.size(), 3u);
  for (const auto& c : rec.chunks) EXPECT_EQ(c.kind, ChunkKind::kToolCall);
  EXPECT_EQ(rec.output_text, R"(get_weather{"city":"Paris"})");
}

TEST(ToolCalls, WholeBodyToolCallsAndLegacyFunctionCall) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  ASSERT_EQ(p->parse_body(R"({"object":"chat.completion","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}]})", 1, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(rec.output_text, R"(f{"x":1}g{})");
  EXPECT_EQ(rec.chunks.back().kind, ChunkKind::kToolCall);
  EXPECT_EQ(rec.finish_reason, "tool_calls");

  RequestRecord legacy;
  p->parse_event(R"({"choices":[{"delta":{"function_call":{"name":"lookup","arguments":""}}}]})", 1, &legacy);
  p->parse_event(R"({"choices":[{"delta":{"function_call":{"arguments":"{\"q\":2}"}}}]})", 2, &legacy);
  EXPECT_EQ(legacy.output_text, R"(lookup{"q":2})");
  ASSERT_EQ(legacy.chunks.size(), 2u);
  EXPECT_EQ(legacy.chunks[1].kind, ChunkKind::kToolCall);
  // Content and a tool call in one event: content first, the chunk is kContent.
  RequestRecord mixed;
  p->parse_event(R"({"choices":[{"delta":{"content":"ok ","tool_calls":[{"function":{"name":"h"}}]}}]})", 1, &mixed);
  EXPECT_EQ(mixed.output_text, "ok h");
  EXPECT_EQ(mixed.chunks[0].kind, ChunkKind::kContent);
}

}  // namespace
}  // namespace servebench::endpoints
