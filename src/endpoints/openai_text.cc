#include "endpoints/openai_text.h"

#include "endpoints/media_parts.h"

#include "endpoints/json_text.h"

namespace servebench::endpoints {

namespace {

class OpenAiTextEndpoint final : public Endpoint {
 public:
  OpenAiTextEndpoint(OpenAiTextKind kind, const EndpointOptions& options, BodyExtras extras)
      : kind_(kind), options_(options), extras_(std::move(extras)) {
    content_key_ = kind == OpenAiTextKind::kChat ? "messages" : "prompt";
    max_tokens_key_ = (kind == OpenAiTextKind::kChat && !options.use_legacy_max_tokens)
                          ? "max_completion_tokens"
                          : "max_tokens";
    append_json_string(options.model, &default_model_json_);
    tail_ = render_tail(nullptr);
  }

  std::string_view name() const override {
    return kind_ == OpenAiTextKind::kChat ? "chat" : "completions";
  }
  std::string_view default_path() const override {
    return kind_ == OpenAiTextKind::kChat ? "/v1/chat/completions" : "/v1/completions";
  }

  std::string render_body(const TurnPayload& turn) const override {
    const BodyExtras* later =
        turn.extras != nullptr && !turn.extras->empty() ? turn.extras : nullptr;
    auto overridden = [&](std::string_view key) { return either_has(extras_, later, key); };
    size_t content_bytes = 0;
    for (const Message& m : turn.messages) content_bytes += m.content.size() + m.role.size() + 32;
    std::string out;
    out.reserve(content_bytes + tail_.size() + default_model_json_.size() + 128);
    out.push_back('{');
    bool first = true;
    auto sep = [&] {
      if (!first) out.push_back(',');
      first = false;
    };
    if (!overridden(content_key_)) {
      sep();
      out.push_back('"');
      out.append(content_key_);
      out.append("\":");
      append_content(turn, &out);
    }
    if (!overridden("model")) {
      sep();
      out.append("\"model\":");
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    // The tail is ",..." members; a turn's extras may override its keys too.
    const std::string tail = later != nullptr ? render_tail(later) : std::string();
    std::string_view t = later != nullptr ? std::string_view(tail) : std::string_view(tail_);
    if (!t.empty()) {
      out.append(first ? t.substr(1) : t);
      first = false;
    }
    if (turn.max_output_tokens >= 0 && !overridden(max_tokens_key_)) {
      sep();
      out.push_back('"');
      out.append(max_tokens_key_);
      out.append("\":");
      out.append(std::to_string(turn.max_output_tokens));
    }
    extras_.append_members(&out, &first, later);
    if (later != nullptr) later->append_members(&out, &first);
    out.push_back('}');
    return out;
  }

 private:
  void append_content(const TurnPayload& turn, std::string* out) const {
    if (kind_ == OpenAiTextKind::kChat) {
      out->push_back('[');
      for (size_t i = 0; i < turn.messages.size(); ++i) {
        if (i) out->push_back(',');
        out->append("{\"role\":");
        append_json_string(turn.messages[i].role.empty() ? "user" : turn.messages[i].role, out);
        out->append(",\"content\":");
        if (i + 1 == turn.messages.size() && !turn.media.empty()) {
          append_openai_content_parts(turn.messages[i].content, turn.media, out);
        } else {
          append_json_string(turn.messages[i].content, out);
        }
        out->push_back('}');
      }
      out->push_back(']');
      return;
    }
    std::string joined;
    for (size_t i = 0; i < turn.messages.size(); ++i) {
      if (i) joined.push_back('\n');
      joined.append(turn.messages[i].content);
    }
    append_json_string(joined, out);
  }

  // ,"stream":..[,"stream_options":..] without the keys an extra sets.
  std::string render_tail(const BodyExtras* later) const {
    std::string tail;
    if (!either_has(extras_, later, "stream"))
      tail += options_.streaming ? ",\"stream\":true" : ",\"stream\":false";
    if (options_.streaming && options_.include_usage &&
        !either_has(extras_, later, "stream_options"))
      tail += options_.continuous_usage
                  ? ",\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}"
                  : ",\"stream_options\":{\"include_usage\":true}";
    return tail;
  }

  OpenAiTextKind kind_;
  EndpointOptions options_;
  BodyExtras extras_;
  const char* content_key_;
  const char* max_tokens_key_;
  std::string default_model_json_;
  std::string tail_;  // render_tail(nullptr)
};

}  // namespace

Result<std::unique_ptr<Endpoint>> make_openai_text_endpoint(OpenAiTextKind kind,
                                                            const EndpointOptions& options) {
  auto extras = BodyExtras::parse(options.extra_inputs_json, "--extra-inputs");
  if (!extras) return tl::unexpected(extras.error());
  return std::unique_ptr<Endpoint>(
      std::make_unique<OpenAiTextEndpoint>(kind, options, std::move(*extras)));
}

}  // namespace servebench::endpoints
