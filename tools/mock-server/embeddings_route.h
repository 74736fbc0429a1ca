// The /v1/embeddings route of servebench-mock (OpenAI embeddings, as vLLM serves them).
//
// Request: {"model":..,"input": "text" | ["text",...] | [id,...] | [[id,...],...],
//           "dimensions": N (optional, 1..4096; default kMockEmbeddingDims), ...}; other fields
// are ignored. Prompt tokens: the TokenCounter's count of each text (ids count one each), summed.
// A chat-shaped request (vLLM's chat embeddings: "messages" instead of "input", contents as
// strings or text parts) embeds to one vector; its prompt tokens are its message texts' counts.
//
// Answer (compact, in this order):
//   {"id":..,"object":"list","created":..,"model":..,"data":[{"index":i,"object":"embedding",
//    "embedding":[v,...]},...],"usage":{"prompt_tokens":N,"total_tokens":N,
//    "completion_tokens":0,"prompt_tokens_details":null}}
// Vectors are deterministic: component d of an input is a hash of (input text, d) mapped to
// [-1, 1] with 6 decimals, so the same text always embeds to the same vector.
//
// --record-requests lines carry num_inputs, dimensions, prompt_tokens and input_type (NIM's
// field, "" when absent).
//
// Timing and faults (session side, embeddings_route.cc): the answer is written at the latency
// model's TTFT for the prompt (ttft_ms + prefill_us_per_token × prompt tokens, with jitter);
// every --error-kind applies as for a non-streamed generation. Embeddings requests do not wait
// in the --max-concurrency queue.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "media_check.h"
#include "responses.h"
#include "text_source.h"

namespace servebench::mock {

inline constexpr int kMockEmbeddingDims = 16;

struct EmbeddingsRequest {
  std::string model;                 // "" when absent
  std::vector<uint64_t> input_keys;  // per input: hash of its text (or ids)
  int64_t prompt_tokens = 0;
  int dimensions = kMockEmbeddingDims;
  std::string input_type;            // NIM's "query"/"passage" ("" when absent; recorded only)
  std::vector<MediaSeen> media;      // images of NIM <img> inputs or chat-shaped parts (recorded)
};

// Errors (→ HTTP 400): invalid JSON, a non-object body, a missing or mistyped `input`, an empty
// input list, `dimensions` out of range.
Result<EmbeddingsRequest> parse_embeddings_request(std::string_view body,
                                                   const TokenCounter& counter);

std::string embeddings_body(const ResponseHead& head, const EmbeddingsRequest& request);

}  // namespace servebench::mock
