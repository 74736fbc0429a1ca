// Parsing of OpenAI-style generation requests (chat completions and completions) into what the
// mock needs: output length inputs, streaming flags, and per-message prompt token counts.
//
// Prompt tokens: chat = sum over messages of count(text), where text is `content` when it is a
// string, or the concatenation (joined by a space) of its {"type":"text"} parts; other parts
// count nothing. Completions = count(prompt) for a string prompt, the sum over a list of
// strings, or the number of ids for a list of token ids. No chat-template overhead is added.
//
// Errors (→ HTTP 400 with an OpenAI error body): invalid JSON, a non-object body, missing or
// mistyped `messages`/`prompt`, mistyped numeric fields, and the length rules' validation.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "media_check.h"
#include "length_rules.h"
#include "text_source.h"

namespace servebench::mock {

// kResponses and kMessages are parsed by their routes (chatlike_stream.h); kTgi/kTgiStream/kSolidoRag
// are parsed and answered by generic_routes.h.
enum class ApiKind { kChat, kCompletions, kResponses, kMessages, kTgi, kTgiStream, kSolidoRag };

struct ParsedRequest {
  std::string model;  // "" when absent
  bool stream = false;
  bool include_usage = false;
  bool continuous_usage = false;  // stream_options.continuous_usage_stats (vLLM): usage per chunk
  LengthRequest length;
  std::optional<int64_t> requested_max_tokens;  // as sent (max_completion_tokens wins)
  std::vector<std::string> roles;               // chat only
  std::vector<int64_t> message_prompt_tokens;   // per message (chat) or per prompt (completions)
  int64_t prompt_tokens = 0;
  std::vector<MediaSeen> media;  // chat content parts (media_check.h)
};

Result<ParsedRequest> parse_request(ApiKind kind, std::string_view body,
                                    const TokenCounter& counter);

}  // namespace servebench::mock
