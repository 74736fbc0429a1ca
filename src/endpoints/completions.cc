// `completions`: OpenAI text completions (/v1/completions); the turn's texts are joined into one
// prompt, so there are no roles (no cache-bust markers, no chat messages).
#include "endpoints/openai_text.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

const EndpointSpec kCompletionsSpec{
    .name = "completions",
    .default_path = "/v1/completions",
    .capabilities = core::kCapStreams | core::kCapProducesTokens | core::kCapTokenizesInput,
    .metrics_title = "LLM Metrics",
    .artifact_name = "openai-completions",
    .batches_texts = false,
    .make_endpoint =
        [](const EndpointOptions& o) {
          return make_openai_text_endpoint(OpenAiTextKind::kCompletions, o);
        },
    .make_parser = &make_openai_event_parser,
    .check = nullptr,
};

const EndpointRegistrar kRegistrar{kCompletionsSpec};

}  // namespace
}  // namespace servebench::endpoints
