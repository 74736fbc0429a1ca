// `chat_embeddings`: embeddings of a chat-shaped input (/v1/embeddings), as vLLM serves them for
// multimodal embedding models (VLM2Vec and the like: its only way to embed images with text).
// One request embeds one conversation; the answer is OpenAI's embeddings list, so the metrics
// are those of `embeddings` (AIPerf's title: "Embeddings Metrics").
//
// Body (keys in this order; extras appended, replacing a standard key of the same name):
//   {"messages":[{"role":"system","content":..}?,{"role":"user","content":..}],"model":..,
//    "stream":false,<extras>}
// System messages (a shared system prompt) stay messages of their own; every other message of
// the turn becomes one text of a single user message, as AIPerf renders a turn: its content is
// the string when there is one text, else a list of {"type":"text","text":..} parts (the
// --batch-size texts, after a user context when there is one). With media (multimodal
// embedders) the content is always a list: the text parts, then the turn's media in OpenAI
// chat's shape (media_parts.h).
#include "endpoints/chatlike_body.h"
#include "endpoints/embeddings_parser.h"
#include "endpoints/json_text.h"
#include "endpoints/media_parts.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

class ChatEmbeddingsEndpoint final : public Endpoint {
 public:
  ChatEmbeddingsEndpoint(const EndpointOptions& options, BodyExtras extras)
      : extras_(std::move(extras)) {
    append_json_string(options.model, &default_model_json_);
  }

  std::string_view name() const override { return "chat_embeddings"; }
  std::string_view default_path() const override { return "/v1/embeddings"; }

  std::string render_body(const TurnPayload& turn) const override {
    size_t bytes = default_model_json_.size() + 96;
    for (const Message& m : turn.messages) bytes += m.content.size() + 32;
    std::string out;
    out.reserve(bytes);
    BodyWriter w(extras_, turn_extras(turn), &out);
    for (const core::MediaPart& m : turn.media) bytes += m.b64().size() + m.url.size() + 64;
    if (w.begin("messages")) append_messages(turn.messages, turn.media, &out);
    if (w.begin("model")) {
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    if (w.begin("stream")) out.append("false");
    w.finish();
    return out;
  }

 private:
  static void append_messages(const std::vector<Message>& messages,
                              const std::vector<core::MediaPart>& media, std::string* out) {
    out->push_back('[');
    bool first = true;
    size_t texts = 0;
    for (const Message& m : messages) {
      if (m.role == "system") {
        if (!first) out->push_back(',');
        first = false;
        out->append("{\"role\":\"system\",\"content\":");
        append_json_string(m.content, out);
        out->push_back('}');
      } else {
        ++texts;
      }
    }
    if (!media.empty()) {
      if (!first) out->push_back(',');
      out->append("{\"role\":\"user\",\"content\":");
      append_multimodal_content(messages, media, out);
      out->append("}]");
      return;
    }
    if (texts > 0) {
      if (!first) out->push_back(',');
      out->append("{\"role\":\"user\",\"content\":");
      if (texts > 1) out->push_back('[');
      bool first_text = true;
      for (const Message& m : messages) {
        if (m.role == "system") continue;
        if (texts == 1) {
          append_json_string(m.content, out);
          break;
        }
        if (!first_text) out->push_back(',');
        first_text = false;
        out->append("{\"type\":\"text\",\"text\":");
        append_json_string(m.content, out);
        out->push_back('}');
      }
      if (texts > 1) out->push_back(']');
      out->push_back('}');
    }
    out->push_back(']');
  }

  // The user message's text parts, then its media parts (OpenAI chat's shape).
  static void append_multimodal_content(const std::vector<Message>& messages,
                                        const std::vector<core::MediaPart>& media, std::string* out) {
    std::string parts;
    append_openai_content_parts({}, media, &parts);  // "[<media parts>]"
    out->push_back('[');
    bool first = true;
    for (const Message& m : messages) {
      if (m.role == "system" || m.content.empty()) continue;
      if (!first) out->push_back(',');
      first = false;
      out->append("{\"type\":\"text\",\"text\":");
      append_json_string(m.content, out);
      out->push_back('}');
    }
    if (parts.size() > 2) {
      if (!first) out->push_back(',');
      out->append(parts, 1, parts.size() - 2);
    }
    out->push_back(']');
  }

  BodyExtras extras_;
  std::string default_model_json_;
};

// One conversation embedded per request: no history to carry.
Status check_chat_embeddings_options(const OptionFacts& facts) {
  if (facts.multi_turn) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--session-turns-mean: endpoint type 'chat_embeddings' embeds one turn per "
                      "request; use 1 turn");
  }
  return {};
}

const EndpointSpec kChatEmbeddingsSpec{
    .name = "chat_embeddings",
    .default_path = "/v1/embeddings",
    .capabilities = core::kCapTokenizesInput | core::kCapMedia,
    .metrics_title = "Embeddings Metrics",
    .artifact_name = "openai-chat_embeddings",
    .batches_texts = true,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
      if (!extras) return tl::unexpected(extras.error());
      return std::unique_ptr<Endpoint>(
          std::make_unique<ChatEmbeddingsEndpoint>(o, std::move(*extras)));
    },
    .make_parser = &make_embeddings_parser,
    .check = &check_chat_embeddings_options,
};

const EndpointRegistrar kRegistrar{kChatEmbeddingsSpec};

}  // namespace
}  // namespace servebench::endpoints
