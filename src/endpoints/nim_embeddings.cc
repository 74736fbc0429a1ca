// `nim_embeddings`: NVIDIA NIM's embeddings API (/v1/embeddings), a superset of OpenAI's. The
// text body is OpenAI's, {"model":..,"input":["text",...],<extras>}, with --batch-size texts per
// request, as AIPerf sends it; NIM's own fields are extras: asymmetric retrievers (nv-embedqa-*)
// need `--extra-inputs input_type:query` (or passage), and `truncate:END` clips long inputs.
// Answer and metrics as `embeddings`; the console title is AIPerf's "NIM Embeddings Metrics".
// Images (NIM's multimodal embedders) go in `input` as "<text> <img src='<data URL>'/>" when a
// turn has as many texts as images, else as the texts then one "<img src='...'/>" per image
// (media_parts.h); audio and video are refused before t0.
#include "endpoints/embeddings.h"
#include "endpoints/embeddings_parser.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

Status check_nim_embeddings_options(const OptionFacts& facts) {
  if (facts.shared_prompts) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--shared-system-prompt-length/--user-context-prompt-length: endpoint type "
                      "'nim_embeddings' takes plain texts; drop them");
  }
  if (facts.multi_turn) {
    return make_error(ErrorCode::kInvalidArgument,
                      "--session-turns-mean: endpoint type 'nim_embeddings' has no conversation "
                      "history; use 1 turn");
  }
  return {};
}

const EndpointSpec kNimEmbeddingsSpec{
    .name = "nim_embeddings",
    .default_path = "/v1/embeddings",
    .capabilities = core::kCapTokenizesInput | core::kCapMedia,
    .metrics_title = "NIM Embeddings Metrics",
    .artifact_name = "openai-nim_embeddings",
    .batches_texts = true,
    .make_endpoint =
        [](const EndpointOptions& o) { return make_embeddings_endpoint("nim_embeddings", o); },
    .make_parser = &make_embeddings_parser,
    .check = &check_nim_embeddings_options,
    .refuses_media = [](core::MediaKind kind) -> const char* {
      return kind == core::MediaKind::kImage ? nullptr : "NIM embeddings take texts and images, no audio or video";
    },
};

const EndpointRegistrar kRegistrar{kNimEmbeddingsSpec};

}  // namespace
}  // namespace servebench::endpoints
