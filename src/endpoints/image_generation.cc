// `image_generation`: OpenAI's image generation API (/v1/images/generations), as served by
// OpenAI, SGLang's diffusion server and FLUX/Stable Diffusion front ends. The answer is images,
// not tokens: AIPerf's "Image Generation Metrics" are request latency, ISL (the prompt) and
// request throughput; no TTFT or ITL, streamed or not (partial images are progress, not tokens).
//
// Body (keys in this order; extra members replace a standard key of the same name and the rest
// are appended, a turn's own extras after --extra-inputs, as AIPerf's payload.update):
//   {"prompt":"<first input text>","model":..,"response_format":"b64_json","n":1,
//    "stream":true (with --streaming),<extras such as size, quality, partial_images>}
// response_format defaults to b64_json (SGLang answers only that); --extra-inputs
// response_format:url asks for links instead.
#include "endpoints/chatlike_body.h"
#include "endpoints/image_parser.h"
#include "endpoints/json_text.h"
#include "endpoints/registry.h"
#include "endpoints/single_turn_checks.h"

namespace servebench::endpoints {
namespace {

class ImageGenerationEndpoint final : public Endpoint {
 public:
  ImageGenerationEndpoint(const EndpointOptions& options, BodyExtras extras)
      : streaming_(options.streaming), extras_(std::move(extras)) {
    append_json_string(options.model, &default_model_json_);
  }

  std::string_view name() const override { return "image_generation"; }
  std::string_view default_path() const override { return "/v1/images/generations"; }

  std::string render_body(const TurnPayload& turn) const override {
    const std::string_view prompt =
        turn.messages.empty() ? std::string_view() : std::string_view(turn.messages[0].content);
    std::string out;
    out.reserve(prompt.size() + default_model_json_.size() + 96);
    BodyWriter w(extras_, turn_extras(turn), &out);
    if (w.begin("prompt")) append_json_string(prompt, &out);
    if (w.begin("model")) {
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    if (w.begin("response_format")) out.append("\"b64_json\"");
    if (w.begin("n")) out.push_back('1');
    if (streaming_ && w.begin("stream")) out.append("true");
    w.finish();
    return out;
  }

 private:
  bool streaming_;
  BodyExtras extras_;
  std::string default_model_json_;
};

const EndpointSpec kImageGenerationSpec{
    .name = "image_generation",
    .default_path = "/v1/images/generations",
    .capabilities = core::kCapStreams | core::kCapTokenizesInput,
    .metrics_title = "Image Generation Metrics",
    .artifact_name = "openai-image_generation",
    .batches_texts = false,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
      if (!extras) return tl::unexpected(extras.error());
      return std::unique_ptr<Endpoint>(
          std::make_unique<ImageGenerationEndpoint>(o, std::move(*extras)));
    },
    .make_parser = &make_image_parser,
    .check = [](const OptionFacts& f) { return check_single_text_turn("image_generation", f); },
};

const EndpointRegistrar kRegistrar{kImageGenerationSpec};

}  // namespace
}  // namespace servebench::endpoints
