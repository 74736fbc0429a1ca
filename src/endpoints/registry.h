// The endpoint registry: one EndpointSpec per API type, each registered from its own file by a
// static EndpointRegistrar, so nothing outside src/endpoints/ names a type. Callers look a spec
// up by the --endpoint-type name and read what they need from it: capabilities (which metrics
// apply, whether messages or streaming make sense), the console title, the artifact folder's
// name part, the default path, the factories, and the option checks.
//
// Adding a type: a new file that defines a spec and registers it (docs/endpoints.md), plus its
// line in CMakeLists.txt. The library is linked as a whole archive so every registrar runs.
//
// Thread safety: registration happens during static initialisation (single-threaded); after
// main() starts the registry is read-only and may be read from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/capabilities.h"
#include "core/media_part.h"
#include "core/result.h"
#include "endpoints/endpoint.h"

namespace servebench::endpoints {

// The options an endpoint type may reject, as facts (filled by config validation, which the
// endpoints module does not depend on).
struct OptionFacts {
  bool streaming = false;       // --streaming
  bool cache_bust = false;      // --cache-bust other than none
  bool shared_prompts = false;  // --shared-system-prompt-length / --user-context-prompt-length
  bool multi_turn = false;      // --session-turns-mean > 1 (synthetic sessions with history)
  int64_t batch_size = 1;       // --batch-size: texts per request
  bool warmup = false;          // a warm-up phase (--warmup-request-count, -duration, -sessions)
  // Requests sent at a trace's timestamps: --fixed-schedule, or an --input-file of a trace type
  // (mooncake_trace), whose rows are text prompts of given lengths.
  bool fixed_schedule = false;
  bool input_file = false;      // --input-file given (prompts come from a file, not synthesis)
  bool rankings_flags = false;  // a --rankings-* flag was given
  bool isl_given = false;       // --isl / --isl-stddev differ from their defaults
  bool media = false;           // synthetic images or audio asked for (--image-*, --audio-*)
  bool download_video = false;  // --download-video-content
  bool per_chunk_usage = false;  // --per-chunk-usage
  bool server_token_count = false;  // --use-server-token-count
  bool media_audio = false;     // synthetic audio asked for (--audio-length-mean)
  bool media_video = false;     // synthetic video asked for (--video-width/--video-height)
};

struct EndpointSpec {
  std::string_view name;          // --endpoint-type value, e.g. "embeddings"
  std::string_view default_path;  // e.g. "/v1/embeddings"
  core::Capabilities capabilities = core::kCapNone;
  std::string_view metrics_title;  // console table title, e.g. "Embeddings Metrics"
  // The "<service>-<endpoint>" part of AIPerf's artifact folder name
  // "<model>-<service>-<endpoint>-<load>", e.g. "openai-embeddings".
  std::string_view artifact_name;
  // Takes a batch of independent texts per request (--batch-size > 1 allowed).
  bool batches_texts = false;
  Result<std::unique_ptr<Endpoint>> (*make_endpoint)(const EndpointOptions& options) = nullptr;
  std::unique_ptr<EventParser> (*make_parser)() = nullptr;
  // Type-specific option rules beyond the capability ones check_options applies (may be null).
  Status (*check)(const OptionFacts& facts) = nullptr;
  // The headers that carry --api-key for this type, e.g. {"x-api-key: <key>",
  // "anthropic-version: ..."}; null = "Authorization: Bearer <key>". Called once at set-up, and
  // only with a non-empty key (the key itself is registered as a secret before any run).
  std::vector<std::string> (*credential_headers)(std::string_view api_key) = nullptr;
  // The request's Content-Type ("" = application/json), e.g. multipart/form-data with the
  // boundary the renderer writes.
  std::string_view content_type = {};
  // A kCapMedia type that takes only some media kinds: why it refuses `kind` (one clause, e.g.
  // "the Anthropic Messages API takes images only, no audio or video"), or null when it takes
  // it. Null function: every kind.
  const char* (*refuses_media)(core::MediaKind kind) = nullptr;

  bool has(core::Capability c) const { return core::has_capability(capabilities, c); }
};

// Registers `spec` at static-initialisation time; define one per type at namespace scope:
//   const EndpointRegistrar kRegistrar{kEmbeddingsSpec};
// A duplicate name is a programming error: the process aborts with a message at start-up.
class EndpointRegistrar {
 public:
  explicit EndpointRegistrar(const EndpointSpec& spec);
};

// The spec for `name`, or an InvalidArgument error "--endpoint-type: unknown type 'x'; known:
// chat, completions, ...".
Result<const EndpointSpec*> find_spec(std::string_view name);
// Every registered spec, sorted by name.
std::vector<const EndpointSpec*> registered_specs();
// The names of the registered types that have every capability in `caps`, sorted, joined with
// `sep` (e.g. "chat" for kCapChatMessages): for error messages and --help.
std::string type_names(core::Capabilities caps = core::kCapNone, std::string_view sep = ", ");

// The option rules for `spec`: --streaming needs kCapStreams, --cache-bust needs
// kCapChatMessages, --batch-size > 1 needs batches_texts, a fixed schedule (trace rows are text
// prompts) needs kCapTokenizesInput, --rankings-* flags need
// kCapQueryPassages, --download-video-content needs kCapPolls, --per-chunk-usage needs
// --use-server-token-count, kCapPerChunkUsage and --streaming (AIPerf's order and reasons), then
// the spec's own check. Warm-up applies to every type.
// Errors are usage errors naming the flag and the types that accept it (one line).
Status check_options(const EndpointSpec& spec, const OptionFacts& facts);

// Whether `spec` takes media of `kind`: kCapMedia and not refused by refuses_media. The error
// (kInvalidArgument, one line) is "<source>: endpoint type '<name>' <reason>; ...".
Status check_media_kind(const EndpointSpec& spec, core::MediaKind kind, std::string_view source);

// The headers that send `api_key` to a server of `type`: the spec's credential_headers, or
// "Authorization: Bearer <key>" (also for an unknown type). None for an empty key.
std::vector<std::string> credential_headers(std::string_view type, std::string_view api_key);

}  // namespace servebench::endpoints
