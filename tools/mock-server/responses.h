// Response bodies and SSE events of servebench-mock, byte for byte as vLLM's OpenAI server
// writes them (pydantic `model_dump_json(exclude_unset=True)`: compact, fields in this order).
//
// Chat stream (one `data: {...}\n\n` per event):
//   role:    {"id","object":"chat.completion.chunk","created","model",
//             "choices":[{"index":0,"delta":{"role":"assistant","content":""},
//                         "logprobs":null,"finish_reason":null}]}
//   token:   ... "delta":{"content":TEXT} (or "reasoning_content"), "logprobs":null,
//            "finish_reason":null}]}
//   last:    the last token event carries "finish_reason":"length"|"stop","stop_reason":null
//   usage:   {"id",...,"choices":[],"usage":{"prompt_tokens","total_tokens","completion_tokens",
//            "prompt_tokens_details":null|{"cached_tokens":N}}}
//   then `data: [DONE]\n\n`.
// Completions stream: {"id","object":"text_completion","created","model","choices":[{"index":0,
//   "text":TEXT,"logprobs":null,"finish_reason":null,"stop_reason":null}]}; no role event.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace servebench::mock {

struct ResponseHead {
  std::string id;          // "chatcmpl-..." or "cmpl-..."
  int64_t created_s = 0;   // Unix seconds
  std::string model_json;  // the model name, already a JSON string literal (quoted, escaped)
};

struct UsageCounts {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t cached_tokens = -1;  // prompt_tokens_details.cached_tokens; -1: details null
  // Speculative decoding (SGLang's names; -1: not reported): verification steps, accepted and
  // drafted tokens.
  int64_t spec_steps = -1;
  int64_t spec_accepted = -1;
  int64_t spec_draft = -1;
};

// The function a --tool-calls answer calls (its arguments are the generated text).
inline constexpr std::string_view kToolName = "lookup";

// JSON string literal of `text` (quotes included).
std::string json_quote(std::string_view text);
void append_json_string(std::string_view text, std::string* out);
void append_json_int(int64_t value, std::string* out);

void append_chat_role_event(const ResponseHead& head, std::string* out);
// finish_reason null → not the last event.
void append_chat_token_event(const ResponseHead& head, std::string_view text, bool reasoning,
                             const char* finish_reason, std::string* out);
// A tool-call delta: {"tool_calls":[{"index":0,"id":"call_0","type":"function","function":
// {"name":"lookup","arguments":TEXT}}]} on the first one, {"index":0,"function":{"arguments":
// TEXT}} after it (OpenAI's streamed function-call grammar).
void append_chat_tool_event(const ResponseHead& head, std::string_view text, bool first,
                            const char* finish_reason, std::string* out);
// Adds `"usage":{...}` to the last event of `out` (which ends with "}\n\n"): vLLM's
// continuous_usage_stats, cumulative counts on every chunk.
void append_event_usage(const UsageCounts& usage, std::string* out);
void append_completion_token_event(const ResponseHead& head, std::string_view text,
                                   const char* finish_reason, std::string* out);
void append_usage_event(const ResponseHead& head, bool chat, const UsageCounts& usage,
                        std::string* out);
void append_done_event(std::string* out);
// A vLLM-style streamed error: data: {"error":{...}}.
void append_error_event(std::string_view message, int code, std::string* out);
// An event whose data is not valid JSON (truncated chunk).
void append_malformed_event(const ResponseHead& head, std::string* out);

// With `tool_call`, the content is null and `content` is the arguments of one call to kToolName.
std::string chat_completion_body(const ResponseHead& head, std::string_view content,
                                 std::string_view reasoning, const char* finish_reason,
                                 const UsageCounts& usage, bool tool_call = false);
std::string completion_body(const ResponseHead& head, std::string_view text,
                            const char* finish_reason, const UsageCounts& usage);
// OpenAI error body: {"error":{"message","type","param":null,"code"}}.
std::string error_body(std::string_view message, std::string_view type, int code);

}  // namespace servebench::mock
