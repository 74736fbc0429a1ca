// `image_retrieval`: NVIDIA NIM image retrieval and detection services (/v1/infer: page
// elements, table structure, OCR), which take images and answer one result per image. The
// request is images only, inline as data URLs (AIPerf's requires_inline_media): no prompt, no
// model key, no tokens either way, so AIPerf's "Image Retrieval Metrics" are request latency,
// request throughput and the input-image metrics (num_images, image_throughput,
// image_latency).
//
// Body (extra members replace a standard key of the same name and the rest are appended, a
// turn's own extras after --extra-inputs):
//   {"input":[{"type":"image_url","url":"data:image/png;base64,..."},..],<extras>}
// The images are the turn's (--image-* synthetic images, or an input file's `images`); a turn
// without any is a usage error before the run (check below). The answer's `data[]` entries are
// counted as output items (the embeddings parser reads the same shape).
#include "endpoints/embeddings_parser.h"
#include "endpoints/json_text.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

class ImageRetrievalEndpoint final : public Endpoint {
 public:
  explicit ImageRetrievalEndpoint(BodyExtras extras) : extras_(std::move(extras)) {}

  std::string_view name() const override { return "image_retrieval"; }
  std::string_view default_path() const override { return "/v1/infer"; }

  std::string render_body(const TurnPayload& turn) const override {
    const BodyExtras* later =
        turn.extras != nullptr && !turn.extras->empty() ? turn.extras : nullptr;
    size_t bytes = 64;
    for (const core::MediaPart& m : turn.media) bytes += m.b64().size() + m.url.size() + 64;
    std::string out;
    out.reserve(bytes);
    out.push_back('{');
    bool first = true;
    if (!either_has(extras_, later, "input")) {
      out.append("\"input\":[");
      bool first_image = true;
      for (const core::MediaPart& m : turn.media) {
        if (m.kind != core::MediaKind::kImage) continue;
        if (!first_image) out.push_back(',');
        first_image = false;
        out.append("{\"type\":\"image_url\",\"url\":");
        append_json_string(m.data_url(), &out);
        out.push_back('}');
      }
      out.push_back(']');
      first = false;
    }
    extras_.append_members(&out, &first, later);
    if (later != nullptr) later->append_members(&out, &first);
    out.push_back('}');
    return out;
  }

 private:
  BodyExtras extras_;
};

Error usage(std::string m) { return Error{ErrorCode::kInvalidArgument, std::move(m)}; }

Status check_image_retrieval(const OptionFacts& facts) {
  if (!facts.media && !facts.input_file) {
    return tl::unexpected(usage(
        "--endpoint-type image_retrieval sends images only; add --image-width-mean and "
        "--image-height-mean (synthetic images) or an --input-file whose rows have images"));
  }
  if (facts.shared_prompts || facts.multi_turn) {
    return tl::unexpected(usage(
        "--endpoint-type image_retrieval sends one turn's images, without text or history; drop "
        "--shared-system-prompt-length/--user-context-prompt-length/--session-turns-mean"));
  }
  return {};
}

const EndpointSpec kImageRetrievalSpec{
    .name = "image_retrieval",
    .default_path = "/v1/infer",
    .capabilities = core::kCapMedia,
    .metrics_title = "Image Retrieval Metrics",
    .artifact_name = "openai-image_retrieval",
    .batches_texts = false,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
      if (!extras) return tl::unexpected(extras.error());
      return std::unique_ptr<Endpoint>(std::make_unique<ImageRetrievalEndpoint>(std::move(*extras)));
    },
    .make_parser = &make_embeddings_parser,
    .check = &check_image_retrieval,
};

const EndpointRegistrar kRegistrar{kImageRetrievalSpec};

}  // namespace
}  // namespace servebench::endpoints
