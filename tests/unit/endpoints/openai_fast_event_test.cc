// The chat/completions parser's fast path (openai_fast_event.h): the shapes it takes and what it
// reads from them, the shapes it must leave to the general path, and, through the parser, that a
// handled event records exactly what the general path records.
#include "endpoints/openai_fast_event.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "endpoints/endpoint.h"
#include "endpoints/usage_fields.h"

namespace servebench::endpoints {
namespace {

using record::ChunkKind;
using record::RequestRecord;

// A vLLM chat chunk whose delta is `delta` (a JSON object's members) and finish_reason `finish`.
std::string vllm_chunk(const std::string& delta, const std::string& finish = "null") {
  return R"({"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model",)"
         R"("choices":[{"index":0,"delta":{)" +
         delta + R"(},"logprobs":null,"finish_reason":)" + finish + "}]}";
}

// A usage-only chunk around `usage` (a JSON value).
std::string usage_chunk(const std::string& usage) {
  return R"({"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model",)"
         R"("choices":[],"usage":)" +
         usage + "}";
}

struct Scanned {
  bool handled = false;
  FastEvent ev;
};

// The scanner keeps the texts in its buffer: one scanner per call, alive with the result.
struct ScanFixture {
  OpenAiFastScanner scanner;
  Scanned scan(const std::string& json) {
    Scanned s;
    s.handled = scanner.scan(json, &s.ev);
    return s;
  }
};

TEST(OpenAiFastEvent, ContentChunk) {
  ScanFixture f;
  auto s = f.scan(vllm_chunk(R"("content":" the")"));
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, " the");
  EXPECT_EQ(s.ev.reasoning, "");
  EXPECT_EQ(s.ev.finish_reason, "");
  EXPECT_FALSE(s.ev.has_usage);
}

TEST(OpenAiFastEvent, RoleFinishAndCompletionsChunks) {
  ScanFixture f;
  auto role = f.scan(vllm_chunk(R"("role":"assistant","content":"")"));
  ASSERT_TRUE(role.handled);
  EXPECT_EQ(role.ev.content, "");
  auto finish = f.scan(vllm_chunk("", R"("stop")"));
  ASSERT_TRUE(finish.handled);
  EXPECT_EQ(finish.ev.finish_reason, "stop");
  auto text = f.scan(
      R"({"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":" upon","logprobs":null,"finish_reason":"length","stop_reason":null}],"usage":null})");
  ASSERT_TRUE(text.handled);
  EXPECT_EQ(text.ev.content, " upon");
  EXPECT_EQ(text.ev.finish_reason, "length");
}

TEST(OpenAiFastEvent, LlamaCppOrderAndTimings) {
  ScanFixture f;
  auto s = f.scan(
      R"({"choices":[{"finish_reason":"length","index":0,"delta":{}}],"created":1732000001,"id":"chatcmpl-L","model":"tiny","system_fingerprint":"b1-abc","object":"chat.completion.chunk","timings":{"prompt_n":5,"prompt_ms":1.2,"predicted_n":2,"predicted_ms":3.4e-1,"x":[true,false,null,-0.5E+2,[],{}]}})");
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.finish_reason, "length");
  EXPECT_EQ(s.ev.content, "");
}

TEST(OpenAiFastEvent, PlainUsageAndDetails) {
  ScanFixture f;
  auto s = f.scan(usage_chunk(
      R"({"prompt_tokens":12,"total_tokens":16,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":8,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":3,"audio_tokens":1,"accepted_prediction_tokens":2,"rejected_prediction_tokens":5,"other":7}})"));
  ASSERT_TRUE(s.handled);
  ASSERT_TRUE(s.ev.has_usage);
  EXPECT_EQ(s.ev.usage.prompt_tokens, 12);
  EXPECT_EQ(s.ev.usage.completion_tokens, 4);
  EXPECT_EQ(s.ev.usage.total_tokens, 16);
  EXPECT_EQ(s.ev.usage.prompt_cache_read_tokens, 8);
  EXPECT_EQ(s.ev.usage.prompt_audio_tokens, 0);
  EXPECT_EQ(s.ev.usage.reasoning_tokens, 3);
  EXPECT_EQ(s.ev.usage.completion_audio_tokens, 1);
  EXPECT_EQ(s.ev.usage.accepted_prediction_tokens, 2);
  EXPECT_EQ(s.ev.usage.rejected_prediction_tokens, 5);
  EXPECT_EQ(s.ev.usage.prompt_cache_write_tokens, -1);
  EXPECT_EQ(s.ev.usage.first_content_chunk_tokens, -1);
}

TEST(OpenAiFastEvent, UsageShapesThatReportNothing) {
  ScanFixture f;
  for (const char* usage : {"null", "{}", R"({"prompt_tokens_details":null})",
                            R"({"prompt_tokens":null,"total_tokens":"3"})", "[1]", "7"}) {
    auto s = f.scan(usage_chunk(usage));
    ASSERT_TRUE(s.handled) << usage;
    EXPECT_FALSE(s.ev.has_usage) << usage;
  }
  // A key the general reader ignores is skipped (SGLang's reasoning_tokens at the top).
  auto s = f.scan(usage_chunk(R"({"prompt_tokens":1,"reasoning_tokens":0,"x":{"input_tokens":9}})"));
  ASSERT_TRUE(s.handled);
  EXPECT_TRUE(s.ev.has_usage);
  EXPECT_EQ(s.ev.usage.prompt_tokens, 1);
}

// The usage keys the general reader reads, which the fast path must not skip unread.
TEST(OpenAiFastEvent, UsageKeysTheGeneralReaderReads) {
  for (const char* key : {"prompt_tokens", "input_tokens", "promptTokenCount", "outputTokens",
                          "generated_token_count", "totalTokens", "cache_read_input_tokens",
                          "prompt_cache_miss_tokens", "toolUsePromptTokenCount", "spec_verify_ct",
                          "input_tokens_details", "output_tokens_details", "prompt_audio_seconds",
                          "cached_tokens", "usageMetadata", "tokens", "meta"}) {
    EXPECT_TRUE(reads_usage_key(key)) << key;
  }
  for (const char* key : {"reasoning_tokens", "audio_tokens", "", "prompt_token", "x"}) {
    EXPECT_FALSE(reads_usage_key(key)) << key;
  }
}

TEST(OpenAiFastEvent, ReasoningFieldsAndTheLastNonEmptyWins) {
  ScanFixture f;
  auto s = f.scan(vllm_chunk(R"("reasoning_content":"Let me","reasoning":null)"));
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.reasoning, "Let me");
  auto both = f.scan(vllm_chunk(R"("reasoning_content":"a","reasoning":"b","content":"c")"));
  ASSERT_TRUE(both.handled);
  EXPECT_EQ(both.ev.reasoning, "b");
  EXPECT_EQ(both.ev.content, "c");
  auto empty_later = f.scan(vllm_chunk(R"("reasoning":"x\ny","reasoning_content":"")"));
  ASSERT_TRUE(empty_later.handled);
  EXPECT_EQ(empty_later.ev.reasoning, "x\ny");
}

TEST(OpenAiFastEvent, EscapesAreDecoded) {
  ScanFixture f;
  auto s = f.scan(vllm_chunk(
      R"("content":"a\"b\\c\/d\be\ff\ng\rh\ti","reasoning_content":"\"r\"")"));
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, "a\"b\\c/d\be\ff\ng\rh\ti");
  EXPECT_EQ(s.ev.reasoning, "\"r\"");
}

TEST(OpenAiFastEvent, AnEmptyOrNullFinishReasonKeepsAnEarlierOne) {
  ScanFixture f;
  auto s = f.scan(R"({"choices":[{"finish_reason":"stop","finish_reason":"","finish_reason":null}]})");
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.finish_reason, "stop");
  auto later = f.scan(R"({"choices":[{"finish_reason":"stop","finish_reason":"length"}]})");
  ASSERT_TRUE(later.handled);
  EXPECT_EQ(later.ev.finish_reason, "length");
}

TEST(OpenAiFastEvent, LastContentStringWins) {
  ScanFixture f;
  auto s = f.scan(
      R"({"choices":[{"text":"a\n","delta":{"content":"b\t","content":null},"message":{"content":"c"},"text":7}]})");
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, "c");
}

TEST(OpenAiFastEvent, OnlyTheFirstChoiceIsRead) {
  ScanFixture f;
  auto s = f.scan(R"({"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}},3,"x"]})");
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, "a");
  auto not_object = f.scan(R"({"choices":[null,{"delta":{"content":"b"}}]})");
  ASSERT_TRUE(not_object.handled);
  EXPECT_EQ(not_object.ev.content, "");
}

TEST(OpenAiFastEvent, SpacesAnywhereJsonAllows) {
  ScanFixture f;
  auto s = f.scan(
      "{ \"id\" : \"x\" ,\n\t\"choices\" : [ { \"delta\" : { \"content\" : \"hi\" , \"tool_calls\" : [ ] } ,"
      " \"finish_reason\" : \"stop\" } ] , \"usage\" : { \"prompt_tokens\" : 2 } , \"error\" : null }");
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, "hi");
  EXPECT_EQ(s.ev.finish_reason, "stop");
  EXPECT_EQ(s.ev.usage.prompt_tokens, 2);
}

TEST(OpenAiFastEvent, NullOrEmptyToolFieldsAreHandled) {
  ScanFixture f;
  auto s = f.scan(vllm_chunk(R"("content":"x","tool_calls":[],"function_call":null,"refusal":null)"));
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, "x");
  EXPECT_TRUE(f.scan(vllm_chunk(R"("tool_calls":null)")).handled);
}

// Each of these is valid JSON the general path reads differently from a plain event, or JSON
// the scanner does not check itself: the scanner must not take it.
TEST(OpenAiFastEvent, ShapesLeftToTheGeneralPath) {
  const std::vector<std::string> cases = {
      vllm_chunk("\"content\":\"\xC3\xA9t\xC3\xA9\""),  // UTF-8
      R"({"model":"caf)" "\xC3\xA9" R"(","choices":[]})",  // UTF-8 in a skipped string
      vllm_chunk(R"("content":"\u00e9")"),
      R"({"id":"\u0041","choices":[]})",                  // \u in a skipped string
      R"({"cho\u0069ces":[]})",                           // escaped key
      R"({"a\"b":1})",                                    // escaped key
      R"({"error":{"message":"boom"}})",
      R"({"error":"boom"})",
      R"({"error":false})",
      R"({"object":"error","message":"bad","code":400})",
      R"({"object":"err\u006fr"})",
      R"({"object":"err\/or"})",
      R"({"usageMetadata":{"promptTokenCount":3}})",
      vllm_chunk(R"("tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}])"),
      vllm_chunk(R"("tool_calls":[null])"),
      vllm_chunk(R"("function_call":{"name":"f"})"),
      vllm_chunk("", R"("st\nop")"),                      // escaped finish_reason
      usage_chunk(R"({"input_tokens":3})"),               // another vendor's synonym
      usage_chunk(R"({"prompt_tokens":3,"cache_read_input_tokens":2})"),
      usage_chunk(R"({"meta":{"tokens":{}}})"),
      usage_chunk(R"({"prompt_audio_seconds":1.5})"),
      usage_chunk(R"({"output_tokens_details":{}})"),
      usage_chunk(R"({"prompt_tokens":1.0})"),
      usage_chunk(R"({"prompt_tokens":1e2})"),
      usage_chunk(R"({"prompt_tokens":-1})"),
      usage_chunk(R"({"prompt_tokens":-0})"),
      usage_chunk(R"({"prompt_tokens":1234567890123456})"),  // 16 digits
      usage_chunk(R"({"prompt_tokens":1,"prompt_tokens":2})"),
      usage_chunk(R"({"prompt_tokens_details":{"cached_tokens":1,"cached_tokens":1}})"),
      usage_chunk(R"({"prompt_tokens_details":{"cached_tokens":0.5}})"),
      R"({"choices":[],"usage":{"prompt_tokens":1},"usage":{"prompt_tokens":2}})",
      R"({"choices":[],"choices":[{"delta":{"content":"x"}}]})",
  };
  for (const std::string& json : cases) {
    ScanFixture f;
    EXPECT_FALSE(f.scan(json).handled) << json;
  }
}

TEST(OpenAiFastEvent, InvalidJsonIsNotTaken) {
  const std::vector<std::string> cases = {
      "", "{", "}", "[]", "[1,2]", "null", "\"x\"", "{}x", "{} ", " {}", "{}{}",
      R"({"a":1,})", R"({"a":1 "b":2})", R"({"a" 1})", R"({a:1})", R"({"a":})", R"({"a":01})",
      R"({"a":1.})", R"({"a":.5})", R"({"a":1e})", R"({"a":-})", R"({"a":+1})", R"({"a":nul})",
      R"({"a":True})", R"({"a":[1,]})", R"({"a":[,1]})", R"({"a":[1 2]})", R"({"a":{"b"}})",
      R"({"a":"x)", "{\"a\":\"x\ty\"}", "{\"a\":\"\x01\"}", R"({"a":"\x"})", R"({"a":"\)",
      R"({"a":'x'})", "{\"a\":1}\n", std::string("{\"a\":\"x\0\"}", 10), "{\"a\":1,\"b\":\"",
      R"({"choices":[{"delta":{"content":"x"}}])", R"({"choices":[{"delta":{"content":"x}}]})",
  };
  for (const std::string& json : cases) {
    ScanFixture f;
    EXPECT_FALSE(f.scan(json).handled) << json;
  }
}

TEST(OpenAiFastEvent, NestingDeeperThanTheLimitIsNotTaken) {
  auto nested = [](int depth) {
    std::string s = R"({"choices":[],"x":)";
    for (int i = 0; i < depth; ++i) s += "[";
    for (int i = 0; i < depth; ++i) s += "]";
    return s + "}";
  };
  ScanFixture f;
  EXPECT_TRUE(f.scan(nested(kFastMaxDepth - 1)).handled);
  EXPECT_FALSE(f.scan(nested(kFastMaxDepth)).handled);
  EXPECT_FALSE(f.scan(nested(5000)).handled);
}

// Short payloads take the byte-wise copy; long ones the word copy with an overlapping tail.
TEST(OpenAiFastEvent, PayloadLengthsAroundTheCopyWidth) {
  ScanFixture f;
  for (size_t pad = 0; pad < 80; ++pad) {
    const std::string json = R"({"choices":[{"text":")" + std::string(pad, 'a') + "\"}]}";
    auto s = f.scan(json);
    ASSERT_TRUE(s.handled) << pad;
    EXPECT_EQ(s.ev.content, std::string(pad, 'a'));
    // A byte >= 0x80 at any place is seen.
    for (size_t at = 0; at < json.size(); at += 7) {
      std::string bad = json;
      bad[at] = static_cast<char>(0xC3);
      EXPECT_FALSE(f.scan(bad).handled) << pad << " " << at;
    }
  }
  // Tiny objects (shorter than a word).
  EXPECT_TRUE(f.scan("{}").handled);
  EXPECT_TRUE(f.scan(R"({"a":1})").handled);
}

// The scanner reuses its buffer: a short event after a long one sees only its own bytes.
TEST(OpenAiFastEvent, BufferReuseKeepsEventsApart) {
  ScanFixture f;
  ASSERT_TRUE(f.scan(vllm_chunk(R"("content":")" + std::string(500, 'x') + "\"")).handled);
  EXPECT_FALSE(f.scan(R"({"choices":[{"text":"ab)").handled);  // unterminated: the old bytes
  auto s = f.scan(R"({"choices":[{"text":"ab"}]})");         // must not close it
  ASSERT_TRUE(s.handled);
  EXPECT_EQ(s.ev.content, "ab");
}

// ---- through the parser ----

void expect_same_record(const RequestRecord& a, const RequestRecord& b, const std::string& what) {
  ASSERT_EQ(a.chunks.size(), b.chunks.size()) << what;
  for (size_t i = 0; i < a.chunks.size(); ++i) {
    EXPECT_EQ(a.chunks[i].kind, b.chunks[i].kind) << what << " chunk " << i;
    EXPECT_EQ(a.chunks[i].text_offset, b.chunks[i].text_offset) << what << " chunk " << i;
    EXPECT_EQ(a.chunks[i].text_bytes, b.chunks[i].text_bytes) << what << " chunk " << i;
    EXPECT_EQ(a.chunks[i].recv_ns, b.chunks[i].recv_ns) << what << " chunk " << i;
  }
  EXPECT_EQ(a.output_text, b.output_text) << what;
  EXPECT_EQ(a.reasoning_text, b.reasoning_text) << what;
  EXPECT_EQ(a.finish_reason, b.finish_reason) << what;
  EXPECT_EQ(a.error, b.error) << what;
  EXPECT_EQ(a.error_message, b.error_message) << what;
  EXPECT_EQ(a.usage.prompt_tokens, b.usage.prompt_tokens) << what;
  EXPECT_EQ(a.usage.completion_tokens, b.usage.completion_tokens) << what;
  EXPECT_EQ(a.usage.total_tokens, b.usage.total_tokens) << what;
  EXPECT_EQ(a.usage.reasoning_tokens, b.usage.reasoning_tokens) << what;
  EXPECT_EQ(a.usage.prompt_cache_read_tokens, b.usage.prompt_cache_read_tokens) << what;
  EXPECT_EQ(a.usage.first_content_chunk_tokens, b.usage.first_content_chunk_tokens) << what;
}

TEST(OpenAiFastEvent, ParserTakesTheFastPathAndRecordsWhatTheGeneralPathRecords) {
  const std::vector<std::string> stream = {
      vllm_chunk(R"("role":"assistant","content":"")"),
      vllm_chunk(R"("reasoning_content":"think\n")"),
      vllm_chunk(R"("content":"Hi \"there\"")") ,
      vllm_chunk(R"("content":"!","reasoning":"more")", R"("stop")"),
      usage_chunk(R"({"prompt_tokens":5,"completion_tokens":3,"total_tokens":8,"completion_tokens_details":{"reasoning_tokens":1}})"),
  };
  auto fast = make_openai_event_parser(OpenAiParsePath::kFastFirst);
  auto general = make_openai_event_parser(OpenAiParsePath::kGeneralOnly);
  RequestRecord a;
  RequestRecord b;
  int64_t t = 10;
  for (const std::string& ev : stream) {
    EXPECT_EQ(fast->parse_event(ev, t, &a), ParseStatus::kOk);
    EXPECT_EQ(general->parse_event(ev, t, &b), ParseStatus::kOk);
    ++t;
  }
  EXPECT_EQ(fast->parse_event("[DONE]", t, &a), ParseStatus::kDone);
  EXPECT_EQ(openai_fast_path_events(*fast), static_cast<int64_t>(stream.size()));
  EXPECT_EQ(openai_fast_path_events(*general), 0);
  expect_same_record(a, b, "stream");
  EXPECT_EQ(a.output_text, "Hi \"there\"!");
  EXPECT_EQ(a.reasoning_text, "think\nmore");
  EXPECT_EQ(a.usage.reasoning_tokens, 1);
  EXPECT_EQ((std::vector<ChunkKind>{a.chunks[0].kind, a.chunks[1].kind, a.chunks[4].kind}),
            (std::vector<ChunkKind>{ChunkKind::kEmpty, ChunkKind::kReasoning, ChunkKind::kUsage}));
}

TEST(OpenAiFastEvent, PerChunkUsageThroughTheFastPath) {
  auto fast = make_openai_event_parser(OpenAiParsePath::kFastFirst);
  RequestRecord rec;
  auto with_usage = [](const std::string& content, int completion) {
    return R"({"choices":[{"delta":{"content":")" + content +
           R"("}}],"usage":{"prompt_tokens":3,"completion_tokens":)" +
           std::to_string(completion) + "}}";
  };
  fast->parse_event(R"({"choices":[{"delta":{"role":"assistant"}}],"usage":{"completion_tokens":0}})", 1, &rec);
  fast->parse_event(with_usage("a b", 2), 2, &rec);
  fast->parse_event(with_usage("c", 3), 3, &rec);
  EXPECT_EQ(openai_fast_path_events(*fast), 3);
  EXPECT_EQ(rec.usage.first_content_chunk_tokens, 2);
  EXPECT_EQ(rec.usage.completion_tokens, 3);
  EXPECT_EQ(rec.chunks[0].kind, ChunkKind::kUsage);
}

TEST(OpenAiFastEvent, ParserFallsBackForWhatTheFastPathLeaves) {
  auto fast = make_openai_event_parser(OpenAiParsePath::kFastFirst);
  RequestRecord rec;
  EXPECT_EQ(fast->parse_event(vllm_chunk(R"("content":"\u00e9")"), 1, &rec), ParseStatus::kOk);
  EXPECT_EQ(fast->parse_event(R"({"error":{"message":"boom"}})", 2, &rec),
            ParseStatus::kServerError);
  RequestRecord bad;
  EXPECT_EQ(fast->parse_event(R"({"choices":[)", 3, &bad), ParseStatus::kMalformed);
  EXPECT_EQ(openai_fast_path_events(*fast), 0);
  EXPECT_EQ(rec.output_text, "\xC3\xA9");
  EXPECT_EQ(rec.error_message, "server error: boom");
  EXPECT_EQ(bad.error, record::ErrorKind::kMalformedSse);
  // Non-streamed bodies take it too.
  RequestRecord body;
  EXPECT_EQ(fast->parse_body(R"({"object":"chat.completion","choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]})", 4, &body),
            ParseStatus::kOk);
  EXPECT_EQ(openai_fast_path_events(*fast), 1);
  EXPECT_EQ(body.output_text, "ok");
  // Other parsers have no fast path.
  EXPECT_EQ(openai_fast_path_events(*make_event_parser("embeddings")), -1);
}

}  // namespace
}  // namespace servebench::endpoints
