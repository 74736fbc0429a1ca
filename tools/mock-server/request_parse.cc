#include "request_parse.h"

#include <simdjson.h>

#include <fmt/format.h>

#include "chatlike_stream.h"

namespace servebench::mock {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

// Reads an optional integer field; floats with an integral value are accepted (as Python does).
Status read_int(simdjson::dom::object body, const char* key, std::optional<int64_t>* out) {
  element v;
  if (body[key].get(v) != simdjson::SUCCESS || v.is_null()) return core::ok_status();
  if (v.is_int64()) {
    *out = v.get_int64().value_unsafe();
    return core::ok_status();
  }
  if (v.is_uint64()) return tl::unexpected(bad(std::string("'") + key + "' is too large"));
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

// A media part's payload: image_url.url, input_audio.data (+ format), video_url.url.
Status inspect_part(std::string_view type, element part, std::vector<MediaSeen>* media) {
  std::string_view payload, format;
  const char* kind = type == "image_url" ? "image" : type == "input_audio" ? "audio" : "video";
  const char* holder = type == "image_url" ? "image_url" : type == "input_audio" ? "input_audio" : "video_url";
  const char* field = type == "input_audio" ? "data" : "url";
  std::string_view uuid;
  const bool has_uuid = part["uuid"].get(uuid) == simdjson::SUCCESS;
  if (part[holder].is_null()) {  // vLLM: the server's multimodal cache holds it, by uuid
    if (!has_uuid) return tl::unexpected(bad(fmt::format("a null '{}' needs a 'uuid'", holder)));
    MediaSeen seen{kind, "uuid"};
    seen.uuid = std::string(uuid);
    seen.stripped = true;
    media->push_back(std::move(seen));
    return {};
  }
  if (part[holder][field].get(payload) != simdjson::SUCCESS)
    return tl::unexpected(bad(fmt::format("{} part needs '{}.{}'", type, holder, field)));
  if (type == "input_audio" && part[holder]["format"].get(format) != simdjson::SUCCESS) format = "wav";
  auto seen = inspect_media(kind, payload, format);
  if (!seen) return tl::unexpected(seen.error());
  if (has_uuid) seen->uuid = std::string(uuid);
  media->push_back(std::move(*seen));
  return {};
}

Result<int64_t> content_tokens(element content, const TokenCounter& counter,
                               std::vector<MediaSeen>* media) {
  if (content.is_null()) return 0;
  if (content.is_string()) return counter.count(content.get_string().value_unsafe());
  if (!content.is_array()) {
    return tl::unexpected(bad("message 'content' must be a string or a list"));
  }
  std::string text;
  const simdjson::dom::array parts = content.get_array().value_unsafe();  // a copy: no dangling
  for (element part : parts) {
    if (!part.is_object()) return tl::unexpected(bad("content parts must be objects"));
    std::string_view type;
    if (part["type"].get(type) != simdjson::SUCCESS) continue;
    if (type == "image_url" || type == "input_audio" || type == "video_url") {
      if (auto st = inspect_part(type, part, media); !st) return tl::unexpected(st.error());
      continue;
    }
    if (type != "text") continue;
    std::string_view t;
    if (part["text"].get(t) != simdjson::SUCCESS) {
      return tl::unexpected(bad("text part needs a string 'text'"));
    }
    if (!text.empty()) text.push_back(' ');
    text += t;
  }
  return counter.count(text);
}

}  // namespace

Result<ParsedRequest> parse_request(ApiKind kind, std::string_view body,
                                    const TokenCounter& counter) {
  if (kind != ApiKind::kChat && kind != ApiKind::kCompletions)
    return parse_chatlike_request(kind, body, counter);
  // One parser per thread: it keeps its buffers between requests (no per-request allocation).
  thread_local simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS) {
    return tl::unexpected(bad("invalid JSON in request body"));
  }
  simdjson::dom::object obj;
  if (doc.get_object().get(obj) != simdjson::SUCCESS) {
    return tl::unexpected(bad("request body must be a JSON object"));
  }

  ParsedRequest r;
  std::string_view model;
  if (obj["model"].get(model) == simdjson::SUCCESS) r.model = std::string(model);
  if (auto s = read_bool(obj, "stream", &r.stream); !s) return tl::unexpected(s.error());
  simdjson::dom::object so;
  if (obj["stream_options"].get(so) == simdjson::SUCCESS) {
    if (auto s = read_bool(so, "include_usage", &r.include_usage); !s) {
      return tl::unexpected(s.error());
    }
    if (auto s = read_bool(so, "continuous_usage_stats", &r.continuous_usage); !s) {
      return tl::unexpected(s.error());
    }
  }
  std::optional<int64_t> max_completion, max_tokens, min_tokens;
  if (auto s = read_int(obj, "max_completion_tokens", &max_completion); !s) {
    return tl::unexpected(s.error());
  }
  if (auto s = read_int(obj, "max_tokens", &max_tokens); !s) return tl::unexpected(s.error());
  if (auto s = read_int(obj, "min_tokens", &min_tokens); !s) return tl::unexpected(s.error());
  if (auto s = read_bool(obj, "ignore_eos", &r.length.ignore_eos); !s) {
    return tl::unexpected(s.error());
  }
  r.requested_max_tokens = max_completion ? max_completion : max_tokens;
  r.length.max_tokens = r.requested_max_tokens;
  r.length.min_tokens = min_tokens.value_or(0);
  if (auto s = validate_length_request(r.length); !s) return tl::unexpected(s.error());

  if (kind == ApiKind::kChat) {
    simdjson::dom::array msgs;
    if (obj["messages"].get(msgs) != simdjson::SUCCESS || msgs.size() == 0) {
      return tl::unexpected(bad("'messages' must be a non-empty list"));
    }
    for (element m : msgs) {
      simdjson::dom::object mo;
      if (m.get_object().get(mo) != simdjson::SUCCESS) {
        return tl::unexpected(bad("each message must be an object"));
      }
      std::string_view role;
      if (mo["role"].get(role) != simdjson::SUCCESS) {
        return tl::unexpected(bad("each message needs a string 'role'"));
      }
      r.roles.emplace_back(role);
      element content;
      auto n = mo["content"].get(content) == simdjson::SUCCESS ? content_tokens(content, counter, &r.media)
                                                               : Result<int64_t>(0);
      if (!n) return tl::unexpected(n.error());
      r.message_prompt_tokens.push_back(*n);
      r.prompt_tokens += *n;
    }
  } else {
    element prompt;
    if (obj["prompt"].get(prompt) != simdjson::SUCCESS) {
      return tl::unexpected(bad("'prompt' is required"));
    }
    if (prompt.is_string()) {
      r.message_prompt_tokens.push_back(counter.count(prompt.get_string().value_unsafe()));
    } else if (prompt.is_array()) {
      simdjson::dom::array items = prompt.get_array().value_unsafe();
      if (items.size() > 0 && items.at(0).value_unsafe().is_int64()) {
        r.message_prompt_tokens.push_back(static_cast<int64_t>(items.size()));
      } else {
        for (element p : items) {
          if (!p.is_string()) return tl::unexpected(bad("'prompt' list items must be strings"));
          r.message_prompt_tokens.push_back(counter.count(p.get_string().value_unsafe()));
        }
      }
    } else {
      return tl::unexpected(bad("'prompt' must be a string or a list"));
    }
    for (int64_t n : r.message_prompt_tokens) r.prompt_tokens += n;
  }
  return r;
}

}  // namespace servebench::mock
