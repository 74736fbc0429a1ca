// Capabilities: what an endpoint type can do. The endpoint registry (src/endpoints/) declares
// them per type; everything outside src/endpoints/ (workload setup, the metric table, exports)
// decides by capability, never by comparing endpoint-type names.
//
// Thread safety: plain constants.
#pragma once

#include <cstdint>

namespace servebench::core {

enum Capability : uint32_t {
  kCapNone = 0,
  kCapStreams = 1u << 0,          // can stream its response (SSE)
  kCapProducesTokens = 1u << 1,   // output is text counted in tokens (OSL, ITL, token throughputs)
  kCapTokenizesInput = 1u << 2,   // input is text counted in tokens (ISL)
  kCapMedia = 1u << 3,            // takes image/audio/video inputs
  kCapPolls = 1u << 4,            // the result is fetched by polling a job
  kCapReasoning = 1u << 5,        // may return reasoning text separately
  kCapChatMessages = 1u << 6,     // input is role-tagged messages (system prompt, history, cache-bust)
  kCapQueryPassages = 1u << 7,    // input is one query plus the passages ranked against it (rankings)
  kCapProducesVideo = 1u << 8,    // the answer is a generated video (server-reported video metrics)
  kCapPerChunkUsage = 1u << 9,    // can ask for cumulative usage on every streamed chunk
                                  // (stream_options.continuous_usage_stats: --per-chunk-usage)
};
using Capabilities = uint32_t;

// The text-generation default (chat): streams, tokens in and out, messages, reasoning.
inline constexpr Capabilities kTextGenerationCaps =
    kCapStreams | kCapProducesTokens | kCapTokenizesInput | kCapReasoning | kCapChatMessages;

inline constexpr bool has_capability(Capabilities caps, Capability c) { return (caps & c) != 0; }

}  // namespace servebench::core
