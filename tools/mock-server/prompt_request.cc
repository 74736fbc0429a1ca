#include "prompt_request.h"

namespace servebench::mock {

Result<PromptRequest> parse_prompt_request(simdjson::dom::parser& parser, std::string_view body,
                                           const TokenCounter& counter) {
  auto bad = [](const char* message) { return make_error(ErrorCode::kInvalidArgument, message); };
  PromptRequest out;
  if (parser.parse(body.data(), body.size()).get(out.doc) != simdjson::SUCCESS)
    return bad("request body is not valid JSON");
  if (!out.doc.is_object()) return bad("request body must be a JSON object");
  simdjson::dom::element v;
  if (out.doc["model"].get(v) == simdjson::SUCCESS && v.is_string())
    out.model = std::string(v.get_string().value_unsafe());
  if (out.doc["prompt"].get(v) != simdjson::SUCCESS || !v.is_string() ||
      v.get_string().value_unsafe().empty())
    return bad("'prompt' must be a non-empty string");
  out.prompt_tokens = counter.count(v.get_string().value_unsafe());
  return out;
}

}  // namespace servebench::mock
