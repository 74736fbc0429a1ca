// `chat`: OpenAI chat completions (/v1/chat/completions) as served by vLLM, SGLang,
// TensorRT-LLM, TGI's OpenAI layer, llama.cpp's llama-server, NIM and hosted APIs.
#include "endpoints/openai_text.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

const EndpointSpec kChatSpec{
    .name = "chat",
    .default_path = "/v1/chat/completions",
    .capabilities = core::kTextGenerationCaps | core::kCapMedia | core::kCapPerChunkUsage,
    .metrics_title = "LLM Metrics",
    .artifact_name = "openai-chat",
    .batches_texts = false,
    .make_endpoint =
        [](const EndpointOptions& o) {
          return make_openai_text_endpoint(OpenAiTextKind::kChat, o);
        },
    .make_parser = &make_openai_event_parser,
    .check = nullptr,
};

const EndpointRegistrar kRegistrar{kChatSpec};

}  // namespace
}  // namespace servebench::endpoints
