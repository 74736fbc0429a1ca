// The part of a generation request body the image and video routes share: a JSON object with an
// optional "model" and a non-empty "prompt" (counted with the mock's token counter).
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "text_source.h"

namespace servebench::mock {

struct PromptRequest {
  std::string model;  // "" when absent
  int64_t prompt_tokens = 0;
  simdjson::dom::element doc;  // the body, owned by the caller's parser
};

// Errors (kInvalidArgument, one line): invalid JSON, a non-object body, a missing or empty prompt.
Result<PromptRequest> parse_prompt_request(simdjson::dom::parser& parser, std::string_view body,
                                           const TokenCounter& counter);

}  // namespace servebench::mock
