// The body renderer shared by the OpenAI-compatible text-generation types (chat, completions)
// and their response parser. The types themselves are specs in chat.cc and completions.cc.
//
// Body layout (keys in this order; extra members are appended and, as in AIPerf's
// `payload.update(extra)`, replace a standard key of the same name; a turn's own extras come
// after --extra-inputs and win over them):
//   chat:        {"messages":[{"role":..,"content":..}..],"model":..,"stream":..,
//                 "stream_options":{"include_usage":true},"max_completion_tokens"|"max_tokens":N,
//                 <extras>}
//   completions: {"prompt":"<message contents joined by \n>","model":..,"stream":..,
//                 "stream_options":{"include_usage":true},"max_tokens":N,<extras>}
// stream_options only when streaming with include_usage (a run always sets it, as AIPerf 0.13
// does), with "continuous_usage_stats":true added under --per-chunk-usage (chat only: the
// registry refuses the flag for other types); the max-tokens key only when the turn
// asks for a count (>= 0). Everything except messages/prompt, a per-turn model, the token count
// and a turn's own extras is rendered once at construction.
//
// Thread safety: the endpoint is immutable; a parser belongs to one worker.
#pragma once

#include <memory>

#include "core/result.h"
#include "endpoints/endpoint.h"

namespace servebench::endpoints {

enum class OpenAiTextKind { kChat, kCompletions };

Result<std::unique_ptr<Endpoint>> make_openai_text_endpoint(OpenAiTextKind kind,
                                                            const EndpointOptions& options);

// The response parser for chat and completions (openai_event_parser.cc).
std::unique_ptr<EventParser> make_openai_event_parser();

}  // namespace servebench::endpoints
