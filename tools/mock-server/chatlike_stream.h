// The chat-like routes of servebench-mock that speak another vendor's grammar than OpenAI chat
// completions: /v1/responses (OpenAI Responses API, responses_api_route.h) and /v1/messages
// (Anthropic Messages API, messages_route.h). They share the chat route's machinery (latency
// model, token events, faults, scenario header, record and ground-truth files); only the bytes
// differ, and those come from a ChatlikeStream made per request.
//
// A ChatlikeStream writes one request's answer: the events before the first token, one event per
// token event of the latency model, the closing events (usage, end of stream), a streamed error,
// or the whole non-streamed body. It keeps the text it has written, because both grammars repeat
// it in their closing events.
//
// Thread safety: a stream belongs to one session; the parsing helpers are pure functions.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"
#include "request_parse.h"
#include "responses.h"
#include "text_source.h"

namespace servebench::mock {

struct ChatlikeUsage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;  // reasoning included
  int64_t reasoning_tokens = 0;
};

class ChatlikeStream {
 public:
  virtual ~ChatlikeStream() = default;
  // The events that precede the first token (sent together with it).
  virtual void open(int64_t prompt_tokens, std::string* out) = 0;
  // One token event's text, as reasoning or as answer text.
  virtual void token(std::string_view text, bool reasoning, std::string* out) = 0;
  // The closing events. `finish_reason`: "length" or "stop" (mapped to the vendor's words).
  virtual void close(const char* finish_reason, const ChatlikeUsage& usage, std::string* out) = 0;
  // A streamed error event (the stream ends after it).
  virtual void error(std::string_view message, std::string* out) = 0;
  // The whole non-streamed answer.
  virtual std::string body(std::string_view content, std::string_view reasoning,
                           const char* finish_reason, const ChatlikeUsage& usage) const = 0;
};

// The stream of `kind`'s grammar, or null for the OpenAI chat and completions kinds.
std::unique_ptr<ChatlikeStream> make_chatlike_stream(ApiKind kind, const ResponseHead& head);

// The request parser of `kind` (responses or messages; REQUIRES: not chat or completions).
Result<ParsedRequest> parse_chatlike_request(ApiKind kind, std::string_view body,
                                             const TokenCounter& counter);

// The response id prefix of `kind`: "chatcmpl-", "cmpl-", "resp_", "msg_".
const char* api_id_prefix(ApiKind kind);

// Appends one SSE event: "event: <name>\ndata: <data>\n\n".
void append_named_event(std::string_view name, std::string_view data, std::string* out);

namespace chatlike {

Error bad(std::string message);
// Optional integer / boolean members, as request_parse.cc reads them (errors name the key).
Status read_int(simdjson::dom::object body, const char* key, std::optional<int64_t>* out);
Status read_bool(simdjson::dom::object body, const char* key, bool* out);
// The text of a content member: a string, or the `text` of each part (joined by a space).
Result<std::string> content_text(simdjson::dom::element content);
// Fills the length and flag fields every generation request shares (ignore_eos, min_tokens),
// with `max_tokens` as the request's maximum, and validates them.
Status finish_length(simdjson::dom::object body, std::optional<int64_t> max_tokens,
                     ParsedRequest* r);
// Adds one input message: its role and the TokenCounter's count of its text.
void add_message(std::string_view role, std::string_view text, const TokenCounter& counter,
                 ParsedRequest* r);

}  // namespace chatlike
}  // namespace servebench::mock
