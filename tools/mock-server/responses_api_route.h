// The /v1/responses route of servebench-mock (OpenAI Responses API), in OpenAI's event grammar
// (the framing llama-server also writes, plus OpenAI's sequence_number/output_index fields).
//
// Request: {"model":..,"input": "text" | [items],"instructions":"..","max_output_tokens":N,
//           "stream":bool, "ignore_eos", "min_tokens", ...}. An item is a message
//           {"type":"message"?,"role":..,"content": "text" | [{"type":"input_text"|
//           "output_text","text":..},..]}; other item types count no tokens. Prompt tokens: the
//           TokenCounter's count of `instructions` (role "system" in the record) plus each
//           message's text. Errors (→ 400): invalid JSON, a non-object body, a missing or
//           mistyped `input`, mistyped numbers, the length rules.
//
// Stream (every event "event: <type>\ndata: {"type":<type>,"sequence_number":n,...}\n\n"):
//   response.created, response.in_progress                      (with the first token)
//   per item: response.output_item.added, response.content_part.added, then one
//     response.reasoning_text.delta (reasoning tokens) or response.output_text.delta per token
//     event, then *.done, response.content_part.done, response.output_item.done
//   response.completed ("status":"completed"), or response.incomplete ("status":"incomplete",
//     "incomplete_details":{"reason":"max_output_tokens"}) when the length ran out; both carry
//     the whole output and "usage":{"input_tokens","input_tokens_details":{"cached_tokens":0},
//     "output_tokens","output_tokens_details":{"reasoning_tokens"},"total_tokens"}.
//   error: {"type":"error","code":"server_error","message":..,"param":null,...}
// Body: the response object {"id","object":"response","created_at","status",
//   "incomplete_details","model","output":[reasoning item?, message item],"usage"}.
//
// Thread safety: pure functions; a stream belongs to one session.
#pragma once

#include <memory>
#include <string_view>

#include "chatlike_stream.h"

namespace servebench::mock {

Result<ParsedRequest> parse_responses_request(std::string_view body, const TokenCounter& counter);

std::unique_ptr<ChatlikeStream> make_responses_stream(const ResponseHead& head);

}  // namespace servebench::mock
