#include "endpoints/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace servebench::endpoints {

namespace {

// A function-local static: registrars in other files may run before this file's statics.
std::vector<const EndpointSpec*>& specs() {
  static std::vector<const EndpointSpec*> all;
  return all;
}

Error usage(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

// --per-chunk-usage: ITL subtracts the first content chunk's server-reported token count, which
// exists only with server counts, on a type that asks for per-chunk usage, when streaming.
Status check_per_chunk_usage(const EndpointSpec& spec, const OptionFacts& facts) {
  if (!facts.server_token_count) {
    return tl::unexpected(usage("--per-chunk-usage requires --use-server-token-count (the "
                                "first-chunk token count comes from server-reported per-chunk "
                                "usage); add it or drop --per-chunk-usage"));
  }
  if (!spec.has(core::kCapPerChunkUsage)) {
    return tl::unexpected(usage("--per-chunk-usage: endpoint type '" + std::string(spec.name) +
                                "' cannot ask for per-chunk usage; use " +
                                type_names(core::kCapPerChunkUsage, " or ") +
                                " or drop --per-chunk-usage"));
  }
  if (!facts.streaming) {
    return tl::unexpected(usage("--per-chunk-usage requires --streaming (per-chunk usage and "
                                "inter-token latency apply only to streamed responses)"));
  }
  return {};
}

}  // namespace

EndpointRegistrar::EndpointRegistrar(const EndpointSpec& spec) {
  auto& all = specs();
  for (const EndpointSpec* s : all) {
    if (s->name == spec.name) {
      std::fprintf(stderr, "servebench: endpoint type '%.*s' registered twice\n",
                   static_cast<int>(spec.name.size()), spec.name.data());
      std::abort();
    }
  }
  all.push_back(&spec);
  std::sort(all.begin(), all.end(),
            [](const EndpointSpec* a, const EndpointSpec* b) { return a->name < b->name; });
}

std::vector<const EndpointSpec*> registered_specs() { return specs(); }

std::string type_names(core::Capabilities caps, std::string_view sep) {
  std::string out;
  for (const EndpointSpec* s : specs()) {
    if ((s->capabilities & caps) != caps) continue;
    if (!out.empty()) out.append(sep);
    out.append(s->name);
  }
  return out;
}

Result<const EndpointSpec*> find_spec(std::string_view name) {
  for (const EndpointSpec* s : specs()) {
    if (s->name == name) return s;
  }
  return tl::unexpected(
      usage("--endpoint-type: unknown type '" + std::string(name) + "'; known: " + type_names()));
}

Status check_options(const EndpointSpec& spec, const OptionFacts& facts) {
  const std::string type(spec.name);
  if (facts.streaming && !spec.has(core::kCapStreams)) {
    return tl::unexpected(usage("--streaming: endpoint type '" + type +
                                "' does not stream; drop --streaming (streaming types: " +
                                type_names(core::kCapStreams) + ")"));
  }
  if (facts.cache_bust && !spec.has(core::kCapChatMessages)) {
    return tl::unexpected(usage("--cache-bust needs an endpoint type that takes chat messages (" +
                                type_names(core::kCapChatMessages, " or ") + "), not '" + type +
                                "'"));
  }
  if (facts.batch_size < 1) return tl::unexpected(usage("--batch-size must be at least 1"));
  if (facts.batch_size > 1 && !spec.batches_texts) {
    std::string batching;
    for (const EndpointSpec* s : specs()) {
      if (!s->batches_texts) continue;
      if (!batching.empty()) batching += ", ";
      batching += s->name;
    }
    return tl::unexpected(usage("--batch-size " + std::to_string(facts.batch_size) +
                                ": endpoint type '" + type + "' sends one input per request; " +
                                "batches apply to " + batching));
  }
  if (facts.fixed_schedule && !spec.has(core::kCapTokenizesInput)) {
    return tl::unexpected(usage("--fixed-schedule: endpoint type '" + type +
                                "' takes no text prompt, and a trace's rows are prompts of given "
                                "lengths; use one of " + type_names(core::kCapTokenizesInput) +
                                ", or drop the trace"));
  }
  if (facts.rankings_flags && !spec.has(core::kCapQueryPassages)) {
    return tl::unexpected(usage("--rankings-* flags shape rankings requests; endpoint type '" +
                                type + "' is not one (rankings types: " +
                                type_names(core::kCapQueryPassages) + "); drop them"));
  }
  if (facts.media && !spec.has(core::kCapMedia)) {
    return tl::unexpected(usage("--image-*/--audio-*/--video-* flags add media inputs; endpoint type '" +
                                type + "' takes none (media types: " +
                                type_names(core::kCapMedia) + "); drop them"));
  }
  if (facts.media && facts.media_audio) SB_TRY(check_media_kind(spec, core::MediaKind::kAudio, "--audio-*"));
  if (facts.media && facts.media_video) SB_TRY(check_media_kind(spec, core::MediaKind::kVideo, "--video-*"));
  if (facts.download_video && !spec.has(core::kCapPolls)) {
    return tl::unexpected(usage("--download-video-content: endpoint type '" + type +
                                "' has no video job to download; drop it (video types: " +
                                type_names(core::kCapPolls) + ")"));
  }
  if (facts.per_chunk_usage) {
    if (auto st = check_per_chunk_usage(spec, facts); !st) return st;
  }
  if (spec.check != nullptr) return spec.check(facts);
  return {};
}

Status check_media_kind(const EndpointSpec& spec, core::MediaKind kind, std::string_view source) {
  const char* reason = !spec.has(core::kCapMedia) ? "takes no media inputs"
                       : spec.refuses_media != nullptr ? spec.refuses_media(kind)
                                                       : nullptr;
  if (reason == nullptr) return {};
  const char* what = kind == core::MediaKind::kImage ? "images" : kind == core::MediaKind::kAudio ? "audio" : "video";
  return tl::unexpected(usage(std::string(source) + ": endpoint type '" + std::string(spec.name) + "' refuses " +
                              what + " (" + reason + "); drop them or use --endpoint-type chat"));
}

std::vector<std::string> credential_headers(std::string_view type, std::string_view api_key) {
  if (api_key.empty()) return {};
  auto spec = find_spec(type);
  if (spec && (*spec)->credential_headers != nullptr) return (*spec)->credential_headers(api_key);
  return {"Authorization: Bearer " + std::string(api_key)};
}

Result<std::unique_ptr<Endpoint>> make_endpoint(std::string_view type,
                                                const EndpointOptions& options) {
  auto spec = find_spec(type);
  if (!spec) return tl::unexpected(spec.error());
  return (*spec)->make_endpoint(options);
}

std::unique_ptr<EventParser> make_event_parser(std::string_view type) {
  auto spec = find_spec(type);
  if (!spec) return nullptr;
  return (*spec)->make_parser();
}

std::vector<std::string> endpoint_types() {
  std::vector<std::string> out;
  for (const EndpointSpec* s : specs()) out.emplace_back(s->name);
  return out;
}

}  // namespace servebench::endpoints
