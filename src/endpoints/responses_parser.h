// The response parser of the `responses` type (OpenAI Responses API), on simdjson's on-demand
// API. One pass over each payload's fields in whatever order the server wrote them.
//
// Streamed events, by the `type` member of their data (the SSE `event:` line carries the same
// name):
//   response.output_text.delta              delta → output text            (kContent)
//   response.reasoning_text.delta           delta → reasoning text         (kReasoning)
//   response.reasoning_summary_text.delta   delta → reasoning text         (kReasoning)
//   response.function_call_arguments.delta  delta → output text, as AIPerf counts tool output
//                                                                          (kToolCall)
//   response.completed, response.incomplete response.usage → RequestRecord::usage; status (or
//                                           incomplete_details.reason) → finish_reason; kDone.
//                                           Its response.output repeats the streamed text and
//                                           is not read again.
//   response.failed                         response.error.message → kServerError
//   error (type, or an `event: error`)      message → kServerError
//   anything else (created, in_progress, output_item.*, content_part.*, *.done) → nothing.
// Events without text append no chunk.
//
// A whole body (no `type`, or "object":"response"): output[] items — message content parts'
// `text` (output_text) → output text; reasoning items' content and summary `text` → reasoning;
// function_call `name` + `arguments` → output text — appended as one chunk (chat's rule:
// kContent when there is content text), usage, and status → finish_reason. A non-null `error`
// → kServerError.
//
// Usage: input_tokens → prompt_tokens, output_tokens → completion_tokens, total_tokens,
// input_tokens_details.cached_tokens → prompt_cache_read_tokens,
// output_tokens_details.reasoning_tokens → reasoning_tokens.
//
// Errors: invalid JSON → kMalformed (kMalformedSse); error objects → kServerError
// (kServerErrorEvent); the first error wins and nothing is appended from a payload that failed.
//
// Thread safety: one parser per worker.
#pragma once

#include <memory>

#include "endpoints/endpoint.h"

namespace servebench::endpoints {

std::unique_ptr<EventParser> make_responses_parser();

}  // namespace servebench::endpoints
