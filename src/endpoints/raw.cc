// `raw`: pre-built request bodies sent verbatim, for APIs no other type speaks. The bodies come
// from the input file: raw_payload rows ({"payload": {...}}), inputs_json payloads, or mooncake
// `payload` rows; a row without a payload sends its text as the body, unchanged. There is no
// default path: --url (with its path) or --endpoint says where to send.
//
// Responses are auto-detected as text, embeddings or rankings (detect_parser.h); an optional
// `--extra-inputs response_field:<JMESPath>` is tried first and falls back to auto-detection on
// a miss (AIPerf's raw behaviour). Other --extra-inputs members are not applied: the payload is
// sent as given.
#include "endpoints/detect_parser.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {

namespace {

class RawEndpoint final : public Endpoint {
 public:
  explicit RawEndpoint(std::shared_ptr<const JmesPath> field) : field_(std::move(field)) {}

  std::string_view name() const override { return "raw"; }
  std::string_view default_path() const override { return ""; }

  std::string render_body(const TurnPayload& turn) const override {
    std::string out;
    for (const Message& m : turn.messages) out.append(m.content);
    return out;
  }

  std::unique_ptr<EventParser> make_parser() const override {
    return make_detect_parser(field_, FieldMiss::kAutoDetect);
  }

 private:
  std::shared_ptr<const JmesPath> field_;
};

Status check_raw_options(const OptionFacts& facts) {
  if (!facts.input_file) {
    return make_error(
        ErrorCode::kInvalidArgument,
        "--endpoint-type raw sends pre-built payloads: give --input-file with "
        "raw_payload rows ({\"payload\": {...}}), an inputs.json, or mooncake payload rows");
  }
  if (facts.shared_prompts) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--shared-system-prompt-length/--user-context-prompt-length: endpoint type "
                      "'raw' sends payloads as given; drop them");
  }
  return {};
}

const EndpointSpec kRawSpec{
    .name = "raw",
    .default_path = "",
    .capabilities = core::kCapStreams | core::kCapProducesTokens | core::kCapTokenizesInput,
    .metrics_title = "LLM Metrics",
    .artifact_name = "raw",
    .batches_texts = false,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto field = response_field_option(o);
      if (!field) return tl::unexpected(field.error());
      return std::unique_ptr<Endpoint>(std::make_unique<RawEndpoint>(std::move(*field)));
    },
    .make_parser = []() { return make_detect_parser(nullptr, FieldMiss::kAutoDetect); },
    .check = &check_raw_options,
};

const EndpointRegistrar kRegistrar{kRawSpec};

}  // namespace
}  // namespace servebench::endpoints
