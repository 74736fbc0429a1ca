// The response parser of the `messages` type (Anthropic Messages API), on simdjson's on-demand
// API. One pass over each payload's fields in whatever order the server wrote them.
//
// Streamed events, by the `type` member of their data (the SSE `event:` line carries the same
// name):
//   message_start        message.usage → RequestRecord::usage (input and cache counts)
//   content_block_start  content_block.text / .thinking, when not empty (servers send "")
//   content_block_delta  delta.type text_delta: delta.text → output text (kContent);
//                        thinking_delta: delta.thinking → reasoning text (kReasoning);
//                        input_json_delta: delta.partial_json → output text, as AIPerf counts
//                        tool output (kToolCall); signature_delta → nothing
//   message_delta        usage (the final output_tokens; counts it repeats replace earlier
//                        ones) → RequestRecord::usage; delta.stop_reason → finish_reason
//   message_stop         kDone
//   ping, content_block_stop → nothing
//   error (type, or an `event: error`) → error.message, kServerError
// Events without text append no chunk.
//
// A whole body ("type":"message"): content[] blocks — text → output text, thinking → reasoning,
// tool_use `input` (its JSON text) → output text — appended as one chunk (chat's rule: kContent
// when there is text), usage, stop_reason → finish_reason.
//
// Usage, normalised to OpenAI's meaning (prompt tokens include cached ones): Anthropic counts
// cache reads and writes apart from input_tokens, so
//   prompt_tokens = input_tokens + cache_read_input_tokens + cache_creation_input_tokens,
//   prompt_cache_read_tokens = cache_read_input_tokens,
//   prompt_cache_write_tokens = cache_creation_input_tokens,
//   completion_tokens = output_tokens, total_tokens = prompt_tokens + completion_tokens.
// llama-server follows Anthropic here: a prompt of 49 tokens with 48 in its prompt cache
// reports input_tokens 1 and cache_read_input_tokens 48.
//
// Errors: invalid JSON → kMalformed (kMalformedSse); error objects → kServerError
// (kServerErrorEvent); the first error wins and nothing is appended from a payload that failed.
//
// Thread safety: one parser per worker.
#pragma once

#include <memory>

#include "endpoints/endpoint.h"

namespace servebench::endpoints {

std::unique_ptr<EventParser> make_anthropic_parser();

}  // namespace servebench::endpoints
