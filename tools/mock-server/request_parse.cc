#include "request_parse.h"

#include <nlohmann/json.hpp>

namespace servebench::mock {
namespace {

using nlohmann::json;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

// Reads an optional integer field; floats with integral value are accepted (as Python does).
Status read_int(const json& body, const char* key, std::optional<int64_t>* out) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return core::ok_status();
  if (it->is_number_integer()) {
    *out = it->get<int64_t>();
    return core::ok_status();
  }
  if (it->is_number_float()) {
    const double d = it->get<double>();
    if (d == static_cast<double>(static_cast<int64_t>(d))) {
      *out = static_cast<int64_t>(d);
      return core::ok_status();
    }
  }
  return tl::unexpected(bad(std::string("'") + key + "' must be an integer"));
}

Status read_bool(const json& body, const char* key, bool* out) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return core::ok_status();
  if (!it->is_boolean()) return tl::unexpected(bad(std::string("'") + key + "' must be a boolean"));
  *out = it->get<bool>();
  return core::ok_status();
}

Result<int64_t> content_tokens(const json& content, const TokenCounter& counter) {
  if (content.is_null()) return 0;
  if (content.is_string()) return counter.count(content.get_ref<const std::string&>());
  if (!content.is_array())
    return tl::unexpected(bad("message 'content' must be a string or a list"));
  std::string text;
  for (const json& part : content) {
    if (!part.is_object()) return tl::unexpected(bad("content parts must be objects"));
    auto type = part.find("type");
    if (type != part.end() && *type == "text") {
      auto t = part.find("text");
      if (t == part.end() || !t->is_string()) return tl::unexpected(bad("text part needs 'text'"));
      if (!text.empty()) text.push_back(' ');
      text += t->get_ref<const std::string&>();
    }
  }
  return counter.count(text);
}

}  // namespace

Result<ParsedRequest> parse_request(ApiKind kind, std::string_view body,
                                    const TokenCounter& counter) {
  json doc = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return tl::unexpected(bad("invalid JSON in request body"));
  if (!doc.is_object()) return tl::unexpected(bad("request body must be a JSON object"));

  ParsedRequest r;
  if (auto m = doc.find("model"); m != doc.end() && m->is_string()) r.model = m->get<std::string>();
  if (auto s = read_bool(doc, "stream", &r.stream); !s) return tl::unexpected(s.error());
  if (auto so = doc.find("stream_options"); so != doc.end() && so->is_object()) {
    if (auto s = read_bool(*so, "include_usage", &r.include_usage); !s)
      return tl::unexpected(s.error());
  }
  std::optional<int64_t> max_completion, max_tokens, min_tokens;
  if (auto s = read_int(doc, "max_completion_tokens", &max_completion); !s)
    return tl::unexpected(s.error());
  if (auto s = read_int(doc, "max_tokens", &max_tokens); !s) return tl::unexpected(s.error());
  if (auto s = read_int(doc, "min_tokens", &min_tokens); !s) return tl::unexpected(s.error());
  if (auto s = read_bool(doc, "ignore_eos", &r.length.ignore_eos); !s)
    return tl::unexpected(s.error());
  r.requested_max_tokens = max_completion ? max_completion : max_tokens;
  r.length.max_tokens = r.requested_max_tokens;
  r.length.min_tokens = min_tokens.value_or(0);
  if (auto s = validate_length_request(r.length); !s) return tl::unexpected(s.error());

  if (kind == ApiKind::kChat) {
    auto msgs = doc.find("messages");
    if (msgs == doc.end() || !msgs->is_array() || msgs->empty()) {
      return tl::unexpected(bad("'messages' must be a non-empty list"));
    }
    for (const json& m : *msgs) {
      if (!m.is_object()) return tl::unexpected(bad("each message must be an object"));
      auto role = m.find("role");
      if (role == m.end() || !role->is_string())
        return tl::unexpected(bad("each message needs a string 'role'"));
      r.roles.push_back(role->get<std::string>());
      auto content = m.find("content");
      auto n = content == m.end() ? Result<int64_t>(0) : content_tokens(*content, counter);
      if (!n) return tl::unexpected(n.error());
      r.message_prompt_tokens.push_back(*n);
      r.prompt_tokens += *n;
    }
  } else {
    auto prompt = doc.find("prompt");
    if (prompt == doc.end()) return tl::unexpected(bad("'prompt' is required"));
    if (prompt->is_string()) {
      r.message_prompt_tokens.push_back(counter.count(prompt->get_ref<const std::string&>()));
    } else if (prompt->is_array() && !prompt->empty() && (*prompt)[0].is_number_integer()) {
      r.message_prompt_tokens.push_back(static_cast<int64_t>(prompt->size()));
    } else if (prompt->is_array()) {
      for (const json& p : *prompt) {
        if (!p.is_string()) return tl::unexpected(bad("'prompt' list items must be strings"));
        r.message_prompt_tokens.push_back(counter.count(p.get_ref<const std::string&>()));
      }
    } else {
      return tl::unexpected(bad("'prompt' must be a string or a list"));
    }
    for (int64_t n : r.message_prompt_tokens) r.prompt_tokens += n;
  }
  return r;
}

}  // namespace servebench::mock
