#include "chatlike_stream.h"

#include "messages_route.h"
#include "responses_api_route.h"

namespace servebench::mock {

std::unique_ptr<ChatlikeStream> make_chatlike_stream(ApiKind kind, const ResponseHead& head) {
  switch (kind) {
    case ApiKind::kResponses:
      return make_responses_stream(head);
    case ApiKind::kMessages:
      return make_messages_stream(head);
    case ApiKind::kChat:
    case ApiKind::kCompletions:
    case ApiKind::kTgi:
    case ApiKind::kTgiStream:
    case ApiKind::kSolidoRag:
      break;
  }
  return nullptr;
}

Result<ParsedRequest> parse_chatlike_request(ApiKind kind, std::string_view body,
                                             const TokenCounter& counter) {
  if (kind == ApiKind::kMessages) return parse_messages_request(body, counter);
  return parse_responses_request(body, counter);
}

const char* api_id_prefix(ApiKind kind) {
  switch (kind) {
    case ApiKind::kChat:
      return "chatcmpl-";
    case ApiKind::kCompletions:
      return "cmpl-";
    case ApiKind::kResponses:
      return "resp_";
    case ApiKind::kMessages:
      return "msg_";
    case ApiKind::kTgi:
    case ApiKind::kTgiStream:
    case ApiKind::kSolidoRag:
      break;
  }
  return "";
}

void append_named_event(std::string_view name, std::string_view data, std::string* out) {
  out->append("event: ");
  out->append(name);
  out->append("\ndata: ");
  out->append(data);
  out->append("\n\n");
}

namespace chatlike {

using simdjson::dom::element;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

Status read_int(simdjson::dom::object body, const char* key, std::optional<int64_t>* out) {
  element v;
  if (body[key].get(v) != simdjson::SUCCESS || v.is_null()) return core::ok_status();
  if (v.is_int64()) {
    *out = v.get_int64().value_unsafe();
    return core::ok_status();
  }
  if (v.is_double()) {
    const double d = v.get_double().value_unsafe();
    if (d == static_cast<double>(static_cast<int64_t>(d))) {
      *out = static_cast<int64_t>(d);
      return core::ok_status();
    }
  }
  return tl::unexpected(bad(std::string("'") + key + "' must be an integer"));
}

Status read_bool(simdjson::dom::object body, const char* key, bool* out) {
  element v;
  if (body[key].get(v) != simdjson::SUCCESS || v.is_null()) return core::ok_status();
  if (!v.is_bool()) return tl::unexpected(bad(std::string("'") + key + "' must be a boolean"));
  *out = v.get_bool().value_unsafe();
  return core::ok_status();
}

Result<std::string> content_text(element content) {
  if (content.is_null()) return std::string();
  if (content.is_string()) return std::string(content.get_string().value_unsafe());
  if (!content.is_array()) return tl::unexpected(bad("'content' must be a string or a list"));
  std::string text;
  const simdjson::dom::array parts = content.get_array().value_unsafe();
  for (element part : parts) {
    if (!part.is_object()) return tl::unexpected(bad("content parts must be objects"));
    std::string_view t;
    if (part["text"].get(t) != simdjson::SUCCESS) continue;  // images, tool results: no text
    if (!text.empty()) text.push_back(' ');
    text += t;
  }
  return text;
}

Status finish_length(simdjson::dom::object body, std::optional<int64_t> max_tokens,
                     ParsedRequest* r) {
  std::optional<int64_t> min_tokens;
  if (auto s = read_int(body, "min_tokens", &min_tokens); !s) return s;
  if (auto s = read_bool(body, "ignore_eos", &r->length.ignore_eos); !s) return s;
  r->requested_max_tokens = max_tokens;
  r->length.max_tokens = max_tokens;
  r->length.min_tokens = min_tokens.value_or(0);
  return validate_length_request(r->length);
}

void add_message(std::string_view role, std::string_view text, const TokenCounter& counter,
                 ParsedRequest* r) {
  r->roles.emplace_back(role);
  const int64_t n = counter.count(text);
  r->message_prompt_tokens.push_back(n);
  r->prompt_tokens += n;
}

}  // namespace chatlike
}  // namespace servebench::mock
