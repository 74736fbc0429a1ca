// `embeddings`: OpenAI embeddings (/v1/embeddings), as served by vLLM, TEI's OpenAI layer,
// Infinity, NIM and hosted APIs. One request embeds a batch of --batch-size texts; the answer is
// not streamed and has no tokens, so only latency, ISL and throughput apply (AIPerf's
// "Embeddings Metrics").
//
// Body (keys in this order; extra members are appended and replace a standard key of the same
// name, a turn's own extras after --extra-inputs):
//   {"model":..,"input":["text",...],<extras>}
// Every message content of the turn is one element of `input`; roles are ignored.
#include "endpoints/embeddings.h"
#include "endpoints/embeddings_parser.h"
#include "endpoints/json_text.h"
#include "endpoints/media_parts.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

class EmbeddingsEndpoint final : public Endpoint {
 public:
  EmbeddingsEndpoint(std::string_view name, const EndpointOptions& options, BodyExtras extras)
      : name_(name), extras_(std::move(extras)) {
    append_json_string(options.model, &default_model_json_);
  }

  std::string_view name() const override { return name_; }
  std::string_view default_path() const override { return "/v1/embeddings"; }

  std::string render_body(const TurnPayload& turn) const override {
    const BodyExtras* later =
        turn.extras != nullptr && !turn.extras->empty() ? turn.extras : nullptr;
    size_t bytes = default_model_json_.size() + 64;
    for (const Message& m : turn.messages) bytes += m.content.size() + 8;
    for (const core::MediaPart& m : turn.media) bytes += m.b64().size() + m.url.size() + 48;
    std::string out;
    out.reserve(bytes);
    out.push_back('{');
    bool first = true;
    if (!either_has(extras_, later, "model")) {
      out.append("\"model\":");
      out.append(turn.model.empty() ? default_model_json_ : quoted(turn.model));
      first = false;
    }
    if (!either_has(extras_, later, "input")) {
      if (!first) out.push_back(',');
      first = false;
      out.append("\"input\":[");
      if (turn.media.empty()) {
        for (size_t i = 0; i < turn.messages.size(); ++i) {
          if (i) out.push_back(',');
          append_json_string(turn.messages[i].content, &out);
        }
      } else {  // nim_embeddings with images (media_parts.h)
        std::vector<std::string_view> texts;
        for (const Message& m : turn.messages)
          if (!m.content.empty()) texts.push_back(m.content);
        append_nim_embedding_inputs(texts, turn.media, &out);
      }
      out.push_back(']');
    }
    extras_.append_members(&out, &first, later);
    if (later != nullptr) later->append_members(&out, &first);
    out.push_back('}');
    return out;
  }

 private:
  static std::string quoted(const std::string& s) {
    std::string q;
    append_json_string(s, &q);
    return q;
  }

  std::string_view name_;
  BodyExtras extras_;
  std::string default_model_json_;
};

// A batch of independent texts has no shared system prompt and no conversation.
Status check_embeddings_options(const OptionFacts& facts) {
  if (facts.shared_prompts) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--shared-system-prompt-length/--user-context-prompt-length: endpoint type "
                      "'embeddings' takes plain texts; drop them");
  }
  if (facts.multi_turn) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--session-turns-mean: endpoint type 'embeddings' has no conversation "
                      "history; use 1 turn");
  }
  return {};
}

const EndpointSpec kEmbeddingsSpec{
    .name = "embeddings",
    .default_path = "/v1/embeddings",
    .capabilities = core::kCapTokenizesInput,
    .metrics_title = "Embeddings Metrics",
    .artifact_name = "openai-embeddings",
    .batches_texts = true,
    .make_endpoint = [](const EndpointOptions& o) {
      return make_embeddings_endpoint("embeddings", o);
    },
    .make_parser = &make_embeddings_parser,
    .check = &check_embeddings_options,
};

const EndpointRegistrar kRegistrar{kEmbeddingsSpec};

}  // namespace

Result<std::unique_ptr<Endpoint>> make_embeddings_endpoint(std::string_view name,
                                                           const EndpointOptions& o) {
  auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
  if (!extras) return tl::unexpected(extras.error());
  return std::unique_ptr<Endpoint>(
      std::make_unique<EmbeddingsEndpoint>(name, o, std::move(*extras)));
}

}  // namespace servebench::endpoints
