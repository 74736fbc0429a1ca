// `messages`: Anthropic's Messages API (/v1/messages), as served by Anthropic, llama.cpp's
// llama-server and Anthropic-compatible gateways. Chat-like: streams, tokens in and out,
// reasoning (thinking blocks), role-tagged history.
//
// Body (keys in this order; extra members are appended and replace a standard key of the same
// name, a turn's own extras after --extra-inputs):
//   {"messages":[{"role":"user","content":".."},{"role":"assistant","content":".."},..],
//    "model":..,"stream":..,"system":"<system prompt>","max_tokens":N,<extras>}
// System messages become the top-level `system` (joined by "\n"; only when there is one);
// every other message keeps its role and text; the turn's images go with its last message as
// `image` blocks with a base64 (or url) `source` (media_parts.h); audio and video are refused
// before t0. `max_tokens` is required by the API: the turn's
// count, or kDefaultMaxTokens when the turn does not ask for one (AIPerf's default).
//
// Credentials: --api-key goes out as `x-api-key: <key>` with `anthropic-version: 2023-06-01`,
// not as a bearer token (EndpointSpec::credential_headers).
#include "endpoints/anthropic_parser.h"
#include "endpoints/chatlike_body.h"
#include "endpoints/json_text.h"
#include "endpoints/media_parts.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

constexpr int64_t kDefaultMaxTokens = 1024;
constexpr std::string_view kAnthropicVersion = "2023-06-01";

class MessagesEndpoint final : public ChatlikeEndpoint {
 public:
  using ChatlikeEndpoint::ChatlikeEndpoint;

  std::string_view name() const override { return "messages"; }
  std::string_view default_path() const override { return "/v1/messages"; }

  std::string render_body(const TurnPayload& turn) const override {
    std::string out;
    BodyWriter body = start(turn, &out);
    if (body.begin("messages")) append_messages(turn, &out);
    model_and_stream(body, turn, &out);
    std::string system;
    if (system_text(turn, &system) && body.begin("system")) append_json_string(system, &out);
    if (body.begin("max_tokens")) {
      out.append(
          std::to_string(turn.max_output_tokens >= 0 ? turn.max_output_tokens : kDefaultMaxTokens));
    }
    body.finish();
    return out;
  }

 private:
  static void append_messages(const TurnPayload& turn, std::string* out) {
    out->push_back('[');
    bool first = true;
    for (size_t i = 0; i < turn.messages.size(); ++i) {
      const Message& m = turn.messages[i];
      if (m.role == "system") continue;
      if (!first) out->push_back(',');
      first = false;
      out->append("{\"role\":");
      append_json_string(m.role.empty() ? "user" : m.role, out);
      out->append(",\"content\":");
      if (i + 1 == turn.messages.size() && !turn.media.empty()) {
        append_anthropic_content_parts(m.content, turn.media, out);
      } else {
        append_json_string(m.content, out);
      }
      out->push_back('}');
    }
    out->push_back(']');
  }
};

std::vector<std::string> anthropic_credentials(std::string_view api_key) {
  std::vector<std::string> h;
  h.push_back("x-api-key: " + std::string(api_key));
  h.push_back("anthropic-version: " + std::string(kAnthropicVersion));
  return h;
}

const EndpointSpec kMessagesSpec{
    .name = "messages",
    .default_path = "/v1/messages",
    .capabilities = core::kTextGenerationCaps | core::kCapMedia,
    .metrics_title = "LLM Metrics",
    .artifact_name = "openai-messages",
    .batches_texts = false,
    .make_endpoint = &make_chatlike_endpoint<MessagesEndpoint>,
    .make_parser = &make_anthropic_parser,
    .check = nullptr,
    .credential_headers = &anthropic_credentials,
    .refuses_media = [](core::MediaKind kind) -> const char* {
      return kind == core::MediaKind::kImage ? nullptr
                                             : "the Anthropic Messages API takes images only, no audio or video";
    },
};

const EndpointRegistrar kRegistrar{kMessagesSpec};

}  // namespace
}  // namespace servebench::endpoints
