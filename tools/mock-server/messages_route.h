// The /v1/messages route of servebench-mock (Anthropic Messages API), in Anthropic's event
// grammar (docs.anthropic.com "Streaming Messages"; llama-server writes the same framing).
//
// Request: {"model":..,"system": "text" | [{"type":"text","text":..}],"messages":[{"role":..,
//           "content": "text" | [blocks]},..],"max_tokens":N (required),"stream":bool,
//           "ignore_eos","min_tokens",...}. Prompt tokens: the TokenCounter's count of `system`
//           (role "system" in the record) plus each message's text (the `text` of text blocks).
//           Errors (→ 400): invalid JSON, a non-object body, missing or empty `messages`, a
//           missing `max_tokens`, mistyped numbers, the length rules.
//
// Stream (every event "event: <type>\ndata: {"type":<type>,...}\n\n"):
//   message_start {"message":{"id","type":"message","role":"assistant","content":[],"model",
//     "stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":N,
//     "cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}, ping
//                                                                      (with the first token)
//   per block (thinking first when there are reasoning tokens, then text):
//     content_block_start {"index":i,"content_block":{"type":"thinking","thinking":"",
//       "signature":""} | {"type":"text","text":""}}, one content_block_delta per token event
//     ({"type":"thinking_delta","thinking":..} | {"type":"text_delta","text":..}), a thinking
//     block's signature_delta, content_block_stop
//   message_delta {"delta":{"stop_reason":"max_tokens"|"end_turn","stop_sequence":null},
//     "usage":{"output_tokens":N}}, message_stop
//   error: {"type":"error","error":{"type":"api_error","message":..}}
// Body: {"id","type":"message","role":"assistant","model","content":[thinking?, text],
//   "stop_reason","stop_sequence":null,"usage":{"input_tokens","cache_creation_input_tokens":0,
//   "cache_read_input_tokens":0,"output_tokens"}}.
//
// Thread safety: pure functions; a stream belongs to one session.
#pragma once

#include <memory>
#include <string_view>

#include "chatlike_stream.h"

namespace servebench::mock {

Result<ParsedRequest> parse_messages_request(std::string_view body, const TokenCounter& counter);

std::unique_ptr<ChatlikeStream> make_messages_stream(const ResponseHead& head);

}  // namespace servebench::mock
