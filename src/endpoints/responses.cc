// `responses`: the OpenAI Responses API (/v1/responses), as served by OpenAI, vLLM and llama.cpp's
// llama-server. Chat-like: streams, tokens in and out, reasoning, role-tagged history.
//
// Body (keys in this order; extra members are appended and replace a standard key of the same
// name, a turn's own extras after --extra-inputs):
//   {"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":..}]},
//             {"type":"message","role":"assistant","content":[{"type":"output_text","text":..}]},
//             ..],
//    "model":..,"stream":..,"instructions":"<system prompt>","max_output_tokens":N,<extras>}
// System messages become `instructions` (joined by "\n"); every other message is one `input`
// item in order, user text as `input_text` and assistant history as `output_text`. Each item
// carries "type":"message": llama-server rejects an assistant item without it ("Cannot
// determine type of 'item'"). `instructions` only when there is a system prompt;
// `max_output_tokens` only when the turn asks for a count. The turn's media go with its last
// message as `input_image` / `input_audio` parts (media_parts.h); video is refused before t0.
#include "endpoints/chatlike_body.h"
#include "endpoints/json_text.h"
#include "endpoints/media_parts.h"
#include "endpoints/registry.h"
#include "endpoints/responses_parser.h"

namespace servebench::endpoints {
namespace {

class ResponsesEndpoint final : public ChatlikeEndpoint {
 public:
  using ChatlikeEndpoint::ChatlikeEndpoint;

  std::string_view name() const override { return "responses"; }
  std::string_view default_path() const override { return "/v1/responses"; }

  std::string render_body(const TurnPayload& turn) const override {
    std::string out;
    BodyWriter body = start(turn, &out);
    if (body.begin("input")) append_input(turn, &out);
    model_and_stream(body, turn, &out);
    std::string system;
    if (system_text(turn, &system) && body.begin("instructions")) append_json_string(system, &out);
    if (turn.max_output_tokens >= 0 && body.begin("max_output_tokens"))
      out.append(std::to_string(turn.max_output_tokens));
    body.finish();
    return out;
  }

 private:
  static void append_input(const TurnPayload& turn, std::string* out) {
    out->push_back('[');
    bool first = true;
    for (size_t i = 0; i < turn.messages.size(); ++i) {
      const Message& m = turn.messages[i];
      if (m.role == "system") continue;
      if (!first) out->push_back(',');
      first = false;
      const bool assistant = m.role == "assistant";
      out->append("{\"type\":\"message\",\"role\":");
      append_json_string(m.role.empty() ? "user" : m.role, out);
      if (i + 1 == turn.messages.size() && !turn.media.empty()) {
        out->append(",\"content\":");
        append_responses_content_parts(m.content, turn.media, out);
        out->push_back('}');
        continue;
      }
      out->append(assistant ? ",\"content\":[{\"type\":\"output_text\",\"text\":"
                            : ",\"content\":[{\"type\":\"input_text\",\"text\":");
      append_json_string(m.content, out);
      out->append("}]}");
    }
    out->push_back(']');
  }
};

const EndpointSpec kResponsesSpec{
    .name = "responses",
    .default_path = "/v1/responses",
    .capabilities = core::kTextGenerationCaps | core::kCapMedia,
    .metrics_title = "LLM Metrics",
    .artifact_name = "openai-responses",
    .batches_texts = false,
    .make_endpoint = &make_chatlike_endpoint<ResponsesEndpoint>,
    .make_parser = &make_responses_parser,
    .check = nullptr,
    .refuses_media = [](core::MediaKind kind) -> const char* {
      return kind == core::MediaKind::kVideo ? "the Responses API takes images and audio, no video" : nullptr;
    },
};

const EndpointRegistrar kRegistrar{kResponsesSpec};

}  // namespace
}  // namespace servebench::endpoints
