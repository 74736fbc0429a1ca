// `image_edit`: OpenAI's image edit API (/v1/images/edits), as SGLang and FLUX.2 servers take
// it: multipart/form-data with the turn's first image as the uploaded `image` file, or its URL
// in a `url` field (SGLang's extension). Answers are the Images API's (image_parser.h). Metrics
// as AIPerf's "Image Edit Metrics": request latency, ISL of the prompt, throughput and the
// input-image metrics (num_images, image_throughput, image_latency).
//
// Form fields, in this order: prompt (the turn's first text), model, response_format
// (b64_json), n (1), then every --extra-inputs member as text (strings unquoted, other values
// as JSON), then the image file (filename image.<ext>, its MIME type). An extra named like a
// standard field replaces it; `prompt`, `image`, `url` and `mask` come from the turn and are a
// usage error in --extra-inputs. An input file row's own `extra` is not sent (the form is
// built from --extra-inputs only). The boundary is fixed (kBoundary); Content-Type comes from
// the spec.
#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "endpoints/image_parser.h"
#include "endpoints/registry.h"
#include "endpoints/single_turn_checks.h"

namespace servebench::endpoints {
namespace {

constexpr std::string_view kBoundary = "servebench-form-b7e2c91d4a3f5068";

void open_part(std::string_view name, std::string* out) {
  out->append("--").append(kBoundary).append("\r\nContent-Disposition: form-data; name=\"");
  out->append(name).push_back('"');
}

void text_part(std::string_view name, std::string_view value, std::string* out) {
  open_part(name, out);
  out->append("\r\n\r\n").append(value).append("\r\n");
}

class ImageEditEndpoint final : public Endpoint {
 public:
  ImageEditEndpoint(const EndpointOptions& o, std::vector<std::pair<std::string, std::string>> f)
      : model_(o.model), extras_(std::move(f)) {}

  std::string_view name() const override { return "image_edit"; }
  std::string_view default_path() const override { return "/v1/images/edits"; }

  std::string render_body(const TurnPayload& turn) const override {
    std::string out;
    text_part("prompt", turn.messages.empty() ? "" : turn.messages[0].content, &out);
    const std::pair<std::string_view, std::string_view> standard[] = {
        {"model", turn.model.empty() ? model_ : turn.model}, {"response_format", "b64_json"},
        {"n", "1"}};
    for (const auto& [k, v] : standard) {
      if (!has_extra(k)) text_part(k, v, &out);
    }
    for (const auto& [k, v] : extras_) text_part(k, v, &out);
    for (const core::MediaPart& m : turn.media) {
      if (m.kind != core::MediaKind::kImage) continue;
      if (!m.url.empty()) {
        text_part("url", m.url, &out);
        break;
      }
      const std::string ext = m.format == "jpeg" ? "jpg" : m.format.empty() ? "png" : m.format;
      open_part("image", &out);
      out.append("; filename=\"image.").append(ext).append("\"\r\nContent-Type: ");
      out.append(m.mime.empty() ? "application/octet-stream" : m.mime).append("\r\n\r\n");
      std::string bytes;
      core::decode_base64(m.b64(), &bytes);  // made or checked as base64 before t0
      out.append(bytes);
      out.append("\r\n");
      break;  // AIPerf sends the turn's first image
    }
    out.append("--").append(kBoundary).append("--\r\n");
    return out;
  }

 private:
  bool has_extra(std::string_view key) const {
    for (const auto& e : extras_)
      if (e.first == key) return true;
    return false;
  }

  std::string model_;
  std::vector<std::pair<std::string, std::string>> extras_;
};

Result<std::unique_ptr<Endpoint>> make(const EndpointOptions& o) {
  std::vector<std::pair<std::string, std::string>> fields;
  if (!o.extra_inputs_json.empty()) {
    const auto j = nlohmann::ordered_json::parse(o.extra_inputs_json, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return make_error(ErrorCode::kInvalidArgument, "--extra-inputs: expected a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& k = it.key();
      if (k == "prompt" || k == "image" || k == "url" || k == "mask") {
        return make_error(ErrorCode::kInvalidArgument,
                          "--extra-inputs " + k + ": endpoint type 'image_edit' takes the prompt "
                          "and image from the input; drop it");
      }
      fields.emplace_back(k, it->is_string() ? it->get<std::string>() : it->dump());
    }
  }
  return std::unique_ptr<Endpoint>(std::make_unique<ImageEditEndpoint>(o, std::move(fields)));
}

Status check_image_edit(const OptionFacts& facts) {
  if (!facts.media && !facts.input_file) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--endpoint-type image_edit edits an input image; add --image-width-mean "
                      "and --image-height-mean (synthetic images) or an --input-file with images");
  }
  return check_single_text_turn("image_edit", facts);
}

const EndpointSpec kImageEditSpec{
    .name = "image_edit",
    .default_path = "/v1/images/edits",
    .capabilities = core::kCapTokenizesInput | core::kCapMedia,
    .metrics_title = "Image Edit Metrics",
    .artifact_name = "openai-image_edit",
    .batches_texts = false,
    .make_endpoint = &make,
    .make_parser = &make_image_parser,
    .check = &check_image_edit,
    .content_type = "multipart/form-data; boundary=servebench-form-b7e2c91d4a3f5068",
};

const EndpointRegistrar kRegistrar{kImageEditSpec};

}  // namespace
}  // namespace servebench::endpoints
