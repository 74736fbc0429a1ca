#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "endpoints/endpoint.h"
#include "transport/sse_parser.h"

namespace servebench::endpoints {
namespace {

using record::ChunkKind;
using record::ErrorKind;
using record::RequestRecord;

std::string read_data(const std::string& name) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  std::string dir = src ? std::string(src) : std::string(SERVEBENCH_TEST_SOURCE_DIR);
  std::ifstream in(dir + "/tests/unit/endpoints/data/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct StreamResult {
  RequestRecord rec;
  std::vector<ParseStatus> statuses;
};

// Runs a recorded stream through SseParser and the endpoint's EventParser, one feed per
// `piece` bytes, feed i stamped 1000 + i.
StreamResult run_stream(const std::string& name, size_t piece = 1 << 20) {
  std::string bytes = read_data(name);
  EXPECT_FALSE(bytes.empty()) << name;
  auto parser = make_event_parser("chat");
  transport::SseParser sse;
  StreamResult r;
  auto sink = [&](const transport::SseEvent& ev) {
    r.statuses.push_back(parser->parse_event(ev.data, ev.recv_ns, &r.rec));
  };
  int64_t t = 1000;
  for (size_t i = 0; i < bytes.size(); i += piece) sse.feed(std::string_view(bytes).substr(i, piece), t++, sink);
  sse.finish(t, sink);
  return r;
}

std::vector<ChunkKind> kinds(const RequestRecord& rec) {
  std::vector<ChunkKind> k;
  for (const auto& c : rec.chunks) k.push_back(c.kind);
  return k;
}

std::string chunk_text(const RequestRecord& rec, size_t i) {
  const auto& c = rec.chunks[i];
  const std::string& src = c.kind == ChunkKind::kReasoning ? rec.reasoning_text : rec.output_text;
  return src.substr(c.text_offset, c.text_bytes);
}

TEST(EventParser, VllmChatStream) {
  auto r = run_stream("vllm_chat.sse");
  ASSERT_EQ(r.statuses.size(), 6u);
  EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kEmpty, ChunkKind::kContent,
                                                  ChunkKind::kContent, ChunkKind::kContent,
                                                  ChunkKind::kUsage}));
  EXPECT_EQ(r.rec.output_text, "Call me \"Ishmael\"\n\xC3\xA9t\xC3\xA9");
  EXPECT_EQ(chunk_text(r.rec, 2), " me \"Ishmael\"\n");
  EXPECT_EQ(r.rec.finish_reason, "length");
  EXPECT_EQ(r.rec.usage.prompt_tokens, 12);
  EXPECT_EQ(r.rec.usage.completion_tokens, 4);
  EXPECT_EQ(r.rec.usage.total_tokens, 16);
  EXPECT_EQ(r.rec.usage.prompt_cache_read_tokens, 8);
  EXPECT_EQ(r.rec.usage.reasoning_tokens, -1);
  EXPECT_EQ(r.rec.error, ErrorKind::kNone);
  for (const auto& c : r.rec.chunks) EXPECT_EQ(c.recv_ns, 1000);
}

TEST(EventParser, ChunkTimestampsFollowTheFeedThatCompletedEachEvent) {
  auto r = run_stream("vllm_chat.sse", 200);  // events straddle feeds
  ASSERT_EQ(r.rec.chunks.size(), 5u);
  for (size_t i = 1; i < r.rec.chunks.size(); ++i) {
    EXPECT_GT(r.rec.chunks[i].recv_ns, r.rec.chunks[i - 1].recv_ns);
  }
  EXPECT_EQ(r.rec.output_text, "Call me \"Ishmael\"\n\xC3\xA9t\xC3\xA9");
}

TEST(EventParser, ReasoningContentAndReasoningFields) {
  auto r = run_stream("vllm_reasoning.sse");
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kEmpty, ChunkKind::kReasoning,
                                                  ChunkKind::kReasoning, ChunkKind::kContent,
                                                  ChunkKind::kUsage}));
  EXPECT_EQ(r.rec.reasoning_text, "Let me think hard.");
  EXPECT_EQ(chunk_text(r.rec, 2), " hard.");
  EXPECT_EQ(r.rec.output_text, "42");
  EXPECT_EQ(r.rec.usage.reasoning_tokens, 6);
  EXPECT_EQ(r.rec.finish_reason, "stop");
}

TEST(EventParser, LlamaCppStreamWithRoleChunkTimingsAndUsageChunk) {
  auto r = run_stream("llamacpp_chat.sse", 97);
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kEmpty, ChunkKind::kContent,
                                                  ChunkKind::kContent, ChunkKind::kEmpty,
                                                  ChunkKind::kUsage}));
  EXPECT_EQ(r.rec.output_text, " the the");
  EXPECT_EQ(r.rec.finish_reason, "length");
  EXPECT_EQ(r.rec.usage.prompt_tokens, 6);
  EXPECT_EQ(r.rec.usage.completion_tokens, 2);
  EXPECT_EQ(r.statuses.back(), ParseStatus::kDone);
}

TEST(EventParser, CompletionsStream) {
  auto r = run_stream("vllm_completions.sse");
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kContent, ChunkKind::kContent,
                                                  ChunkKind::kUsage}));
  EXPECT_EQ(r.rec.output_text, "Once upon");
  EXPECT_EQ(r.rec.usage.total_tokens, 6);
}

TEST(EventParser, ToolCallTextCountsAsOutput) {
  auto r = run_stream("tool_calls.sse");
  EXPECT_EQ(kinds(r.rec), (std::vector<ChunkKind>{ChunkKind::kToolCall, ChunkKind::kToolCall,
                                                  ChunkKind::kToolCall}));
  EXPECT_EQ(r.rec.output_text, "get_weather{\"city\":\"Paris\"}");
  EXPECT_EQ(r.rec.finish_reason, "tool_calls");
}

TEST(EventParser, ErrorObjectInStream) {
  auto r = run_stream("error_stream.sse");
  ASSERT_EQ(r.statuses.size(), 2u);
  EXPECT_EQ(r.statuses[1], ParseStatus::kServerError);
  EXPECT_EQ(r.rec.error, ErrorKind::kServerErrorEvent);
  EXPECT_NE(r.rec.error_message.find("ran out of KV cache"), std::string::npos);
  EXPECT_EQ(r.rec.output_text, "ok");
  EXPECT_EQ(r.rec.chunks.size(), 1u);
}

TEST(EventParser, OldStyleVllmErrorObject) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  EXPECT_EQ(p->parse_event(R"({"object":"error","message":"bad things","code":400})", 1, &rec),
            ParseStatus::kServerError);
  EXPECT_EQ(rec.error_message, "server error: bad things");
  // A null error field is not an error.
  RequestRecord ok;
  EXPECT_EQ(p->parse_event(R"({"error":null,"choices":[{"delta":{"content":"x"}}]})", 1, &ok),
            ParseStatus::kOk);
  EXPECT_EQ(ok.error, ErrorKind::kNone);
}

TEST(EventParser, MalformedPayloads) {
  auto p = make_event_parser("chat");
  for (const char* bad : {"not json", "{\"choices\":[", "{\"choices\":[{\"delta\":{\"content\":\"x\"}}]",
                          "[1,2]", "{\"a\":1} trailing", "{\"choices\":[{\"delta\":{\"content\":\"x}}]}"}) {
    RequestRecord rec;
    EXPECT_EQ(p->parse_event(bad, 5, &rec), ParseStatus::kMalformed) << bad;
    EXPECT_EQ(rec.error, ErrorKind::kMalformedSse) << bad;
    EXPECT_TRUE(rec.chunks.empty()) << bad;
    EXPECT_TRUE(rec.output_text.empty()) << bad;
  }
  // The parser recovers for the next event.
  RequestRecord rec;
  EXPECT_EQ(p->parse_event(R"({"choices":[{"delta":{"content":"fine"}}]})", 6, &rec), ParseStatus::kOk);
  EXPECT_EQ(rec.output_text, "fine");
}

TEST(EventParser, DoneAndBlankPayloads) {
  auto p = make_event_parser("completions");
  RequestRecord rec;
  EXPECT_EQ(p->parse_event("[DONE]", 1, &rec), ParseStatus::kDone);
  EXPECT_EQ(p->parse_event(" [DONE] ", 1, &rec), ParseStatus::kDone);
  EXPECT_EQ(p->parse_event("", 1, &rec), ParseStatus::kOk);
  EXPECT_TRUE(rec.chunks.empty());
}

TEST(EventParser, LastNonEmptyUsageWins) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  p->parse_event(R"({"choices":[{"delta":{"content":"a"}}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}})", 1, &rec);
  p->parse_event(R"({"choices":[{"delta":{"content":"b"}}],"usage":{}})", 2, &rec);
  EXPECT_EQ(rec.usage.completion_tokens, 1);
  p->parse_event(R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}})", 3, &rec);
  EXPECT_EQ(rec.usage.completion_tokens, 2);
  EXPECT_EQ(rec.chunks.back().kind, ChunkKind::kUsage);
  EXPECT_EQ(rec.chunks[1].kind, ChunkKind::kContent);  // usage:{} does not make it usage-only
}

// vLLM's continuous_usage_stats: usage on every chunk, cumulative. The first content event's
// completion count is kept (the role-only event before it does not count), later ones are not.
TEST(EventParser, FirstContentChunkUsageIsKept) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  p->parse_event(R"({"choices":[{"delta":{"role":"assistant"}}],"usage":{"prompt_tokens":3,"completion_tokens":0,"total_tokens":3}})", 1, &rec);
  EXPECT_EQ(rec.usage.first_content_chunk_tokens, -1);
  p->parse_event(R"({"choices":[{"delta":{"content":"a b c"}}],"usage":{"prompt_tokens":3,"completion_tokens":3,"total_tokens":6}})", 2, &rec);
  p->parse_event(R"({"choices":[{"delta":{"content":"d"}}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}})", 3, &rec);
  EXPECT_EQ(rec.usage.first_content_chunk_tokens, 3);
  EXPECT_EQ(rec.usage.completion_tokens, 4);
  RequestRecord plain;  // usage only at the end: nothing to keep
  p->parse_event(R"({"choices":[{"delta":{"content":"a"}}]})", 1, &plain);
  p->parse_event(R"({"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}})", 2, &plain);
  EXPECT_EQ(plain.usage.first_content_chunk_tokens, -1);
}

TEST(EventParser, NonStreamedBodies) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  EXPECT_EQ(p->parse_body(R"({"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi there","reasoning_content":"hmm"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}})",
                          77, &rec),
            ParseStatus::kOk);
  ASSERT_EQ(rec.chunks.size(), 1u);
  EXPECT_EQ(rec.chunks[0].kind, ChunkKind::kContent);
  EXPECT_EQ(rec.chunks[0].recv_ns, 77);
  EXPECT_EQ(rec.output_text, "Hi there");
  EXPECT_EQ(rec.reasoning_text, "hmm");
  EXPECT_EQ(rec.usage.total_tokens, 7);

  auto c = make_event_parser("completions");
  RequestRecord rec2;
  EXPECT_EQ(c->parse_body(R"({"object":"text_completion","choices":[{"text":"abc","finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":3,"total_tokens":4},"timings":{"x":1}})", 9, &rec2),
            ParseStatus::kOk);
  EXPECT_EQ(rec2.output_text, "abc");
  EXPECT_EQ(rec2.finish_reason, "length");

  RequestRecord rec3;
  EXPECT_EQ(p->parse_body("<html>502 Bad Gateway</html>", 9, &rec3), ParseStatus::kMalformed);
  EXPECT_EQ(rec3.error, ErrorKind::kMalformedSse);
  EXPECT_NE(rec3.error_message.find("502 Bad Gateway"), std::string::npos);
}

TEST(EventParser, EscapedKeysAndUnicodeEscapes) {
  auto p = make_event_parser("chat");
  RequestRecord rec;
  EXPECT_EQ(p->parse_event(R"({"choices":[{"delta":{"content":"\ud83d\ude00 \t\\"}}]})", 1, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(rec.output_text, "\xF0\x9F\x98\x80 \t\\");
}

TEST(EventParser, UnknownTypeHasNoParser) { EXPECT_EQ(make_event_parser("embedings"), nullptr); }

}  // namespace
}  // namespace servebench::endpoints
