// The OpenAI-compatible `chat` and `completions` endpoints (vLLM, SGLang, TensorRT-LLM, TGI's
// OpenAI layer, llama.cpp's llama-server, NIM, hosted APIs) and the endpoint registry.
//
// Body layout (keys in this order; `--extra-inputs` keys are appended and, as in AIPerf's
// `payload.update(extra)`, replace a standard key of the same name):
//   chat:        {"messages":[{"role":..,"content":..}..],"model":..,"stream":..,
//                 "stream_options":{"include_usage":true},"max_completion_tokens"|"max_tokens":N,
//                 <extras>}
//   completions: {"prompt":"<message contents joined by \n>","model":..,"stream":..,
//                 "stream_options":{"include_usage":true},"max_tokens":N,<extras>}
// stream_options only when streaming with include_usage; the max-tokens key only when the turn
// asks for a count (>= 0). Everything except messages/prompt, a per-turn model and the token
// count is rendered once at construction.
#include <nlohmann/json.hpp>

#include <set>

#include "endpoints/endpoint.h"
#include "endpoints/json_text.h"

namespace servebench::endpoints {

namespace {

enum class Kind { kChat, kCompletions };

class OpenAiEndpoint final : public Endpoint {
 public:
  OpenAiEndpoint(Kind kind, const EndpointOptions& options, std::set<std::string> extra_keys,
                 std::string extras_rendered)
      : kind_(kind) {
    auto has = [&](const char* k) { return extra_keys.count(k) != 0; };
    content_key_ = kind == Kind::kChat ? "messages" : "prompt";
    override_content_ = has(content_key_);
    override_model_ = has("model");
    max_tokens_key_ = (kind == Kind::kChat && !options.use_legacy_max_tokens)
                          ? "max_completion_tokens"
                          : "max_tokens";
    override_max_tokens_ = has(max_tokens_key_);
    if (!override_model_) append_json_string(options.model, &default_model_json_);
    // The static tail after the model.
    if (!has("stream")) tail_ += options.streaming ? ",\"stream\":true" : ",\"stream\":false";
    if (options.streaming && options.include_usage && !has("stream_options")) {
      tail_ += ",\"stream_options\":{\"include_usage\":true}";
    }
    extras_ = std::move(extras_rendered);
  }

  std::string_view name() const override { return kind_ == Kind::kChat ? "chat" : "completions"; }
  std::string_view default_path() const override {
    return kind_ == Kind::kChat ? "/v1/chat/completions" : "/v1/completions";
  }
  bool supports_streaming() const override { return true; }

  std::string render_body(const TurnPayload& turn) const override {
    size_t content_bytes = 0;
    for (const Message& m : turn.messages) content_bytes += m.content.size() + m.role.size() + 32;
    std::string out;
    out.reserve(content_bytes + tail_.size() + extras_.size() + default_model_json_.size() + 64);
    out.push_back('{');
    bool first = true;
    auto sep = [&] {
      if (!first) out.push_back(',');
      first = false;
    };
    if (!override_content_) {
      sep();
      out.push_back('"');
      out.append(content_key_);
      out.append("\":");
      if (kind_ == Kind::kChat) {
        out.push_back('[');
        for (size_t i = 0; i < turn.messages.size(); ++i) {
          if (i) out.push_back(',');
          out.append("{\"role\":");
          append_json_string(turn.messages[i].role.empty() ? "user" : turn.messages[i].role, &out);
          out.append(",\"content\":");
          append_json_string(turn.messages[i].content, &out);
          out.push_back('}');
        }
        out.push_back(']');
      } else {
        std::string joined;
        for (size_t i = 0; i < turn.messages.size(); ++i) {
          if (i) joined.push_back('\n');
          joined.append(turn.messages[i].content);
        }
        append_json_string(joined, &out);
      }
    }
    if (!override_model_) {
      sep();
      out.append("\"model\":");
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    if (first) {
      // Both content and model came from extras: the tail must not start with a comma.
      std::string_view t = tail_;
      if (!t.empty()) {
        out.append(t.substr(1));
        first = false;
      }
    } else {
      out.append(tail_);
    }
    if (turn.max_output_tokens >= 0 && !override_max_tokens_) {
      sep();
      out.push_back('"');
      out.append(max_tokens_key_);
      out.append("\":");
      out.append(std::to_string(turn.max_output_tokens));
    }
    if (!extras_.empty()) {
      sep();
      out.append(extras_);
    }
    out.push_back('}');
    return out;
  }

 private:
  Kind kind_;
  const char* content_key_;
  const char* max_tokens_key_;
  bool override_content_ = false;
  bool override_model_ = false;
  bool override_max_tokens_ = false;
  std::string default_model_json_;
  std::string tail_;    // ,"stream":..[,"stream_options":..]
  std::string extras_;  // "k":v,"k2":v2 (no braces)
};

// Parses --extra-inputs (a JSON object) into its rendered members and key set.
Status render_extras(const std::string& json_text, std::set<std::string>* keys, std::string* out) {
  if (json_text.empty()) return core::ok_status();
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(json_text);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--extra-inputs: not valid JSON (" + std::string(e.what()) +
                          "); pass key:value pairs or a JSON object");
  }
  if (!j.is_object()) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--extra-inputs: expected a JSON object such as {\"ignore_eos\":true}, got " +
                          std::string(j.type_name()));
  }
  bool first = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!first) out->push_back(',');
    first = false;
    append_json_string(it.key(), out);
    out->push_back(':');
    out->append(it.value().dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    keys->insert(it.key());
  }
  return core::ok_status();
}

}  // namespace

std::vector<std::string> endpoint_types() { return {"chat", "completions"}; }

std::string merge_body_extras(std::string_view body, std::string_view extra_json) {
  if (extra_json.empty()) return std::string(body);
  auto b = nlohmann::json::parse(body, nullptr, false);
  auto e = nlohmann::json::parse(extra_json, nullptr, false);
  if (b.is_discarded() || !b.is_object() || e.is_discarded() || !e.is_object()) return std::string(body);
  for (auto it = e.begin(); it != e.end(); ++it) b[it.key()] = it.value();
  return b.dump();
}

Result<std::unique_ptr<Endpoint>> make_endpoint(std::string_view type,
                                                const EndpointOptions& options) {
  Kind kind;
  if (type == "chat") {
    kind = Kind::kChat;
  } else if (type == "completions") {
    kind = Kind::kCompletions;
  } else {
    std::string known;
    for (const std::string& t : endpoint_types()) known += (known.empty() ? "" : ", ") + t;
    return make_error(ErrorCode::kInvalidArgument, "--endpoint-type: unknown type '" +
                                                       std::string(type) + "'; known: " + known);
  }
  std::set<std::string> keys;
  std::string extras;
  if (Status s = render_extras(options.extra_inputs_json, &keys, &extras); !s) {
    return tl::unexpected(s.error());
  }
  return std::unique_ptr<Endpoint>(
      std::make_unique<OpenAiEndpoint>(kind, options, std::move(keys), std::move(extras)));
}

}  // namespace servebench::endpoints
