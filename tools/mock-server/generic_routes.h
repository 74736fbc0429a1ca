// The non-OpenAI generation routes of servebench-mock, as request parsers and answer builders
// (pure functions); the session runs them with the chat route's latency model, faults and
// record files (session.cc, session_stream.cc).
//
// Hugging Face TGI (POST /generate, POST /generate_stream):
//   request  {"inputs":"text","parameters":{"max_new_tokens":N,"details":bool,...},...};
//            prompt tokens = count(inputs); max_new_tokens is the output limit (absent: the
//            server default); parameters.details asks /generate for its details object.
//   stream   TGI's framing, `data:` without a space, one event per token group:
//              data:{"index":i,"token":{"id":i,"text":"..","logprob":-0.5,"special":false},
//                    "generated_text":null,"details":null}\n\n
//            the last one carries "generated_text":"<whole answer>" and "details":
//            {"finish_reason":"length"|"eos_token","generated_tokens":N,"seed":null,
//             "input_length":P}; no [DONE]. A streamed error is data:{"error":"..",
//            "error_type":"generation"}.
//   body     {"generated_text":".."} (+ ,"details":{"finish_reason","generated_tokens",
//            "seed":null,"prefill":[],"tokens":[]} when details were asked for)
// Solido RAG (POST /rag/api/prompt):
//   request  {"query":["text",...],"filters":{..},"inference_model":".."}; prompt tokens = the
//            sum of the query texts' counts; streams when the client accepts text/event-stream.
//   stream   data: {"content":".."}\n\n per token group, no [DONE]
//   body     {"content":"..","sources":[{"title":"mock-source","score":1.0}]}
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "request_parse.h"
#include "text_source.h"

namespace servebench::mock {

// True for the kinds answered in OpenAI's shapes (chat, completions).
inline bool is_openai_kind(ApiKind kind) {
  return kind == ApiKind::kChat || kind == ApiKind::kCompletions;
}

// parse_request for the OpenAI kinds, the parsers below for the others. For TGI `stream`
// follows the route and `include_usage` carries parameters.details.
Result<ParsedRequest> parse_any_request(ApiKind kind, std::string_view body,
                                        const TokenCounter& counter);

Result<ParsedRequest> parse_tgi_request(std::string_view body, bool stream,
                                        const TokenCounter& counter);
Result<ParsedRequest> parse_solido_request(std::string_view body, const TokenCounter& counter);

// The final facts of a generation, for the answers that report them.
struct GenerationEnd {
  const char* finish_reason = "length";  // OpenAI's reason; TGI reports "eos_token" for "stop"
  int64_t generated_tokens = 0;
  int64_t prompt_tokens = 0;
  std::string_view full_text;
};

// One streamed token event of a non-OpenAI kind; `end` is set on the last one.
void append_generic_token_event(ApiKind kind, int64_t index, std::string_view text,
                                const GenerationEnd* end, std::string* out);
// A streamed error event in the kind's shape.
void append_generic_error_event(ApiKind kind, std::string_view message, std::string* out);
// The whole (non-streamed) answer of a non-OpenAI kind; `details` asks for TGI's details.
std::string generic_body(ApiKind kind, const GenerationEnd& end, bool details);

}  // namespace servebench::mock
