// The rankings (rerank) routes of servebench-mock, one answer shape per API:
//   kNim     POST /v1/ranking  {"model":..,"query":{"text":..},"passages":[{"text":..},..]}
//            → {"rankings":[{"index":i,"logit":x},..]}
//   kTei     POST /rerank      {"query":..,"texts":[..]}  → [{"index":i,"score":x},..]
//   kCohere  POST /v2/rerank and /v1/rerank  {"model":..,"query":..,"documents":[..]} (documents
//            as strings or {"text":..} objects)
//            → {"id":..,"model":..,"results":[{"index":i,"relevance_score":x},..],
//               "usage":{"prompt_tokens":N,"total_tokens":N}}  (llama-server's and vLLM's shape)
// Entries are sorted by score, highest first, as every server answers; `top_n` (TEI: none,
// Cohere/NIM: optional) keeps the first n. A score is a deterministic hash of (query, passage)
// mapped to [-10, 10] with 6 decimals. Prompt tokens: the TokenCounter's count of the query plus
// every passage (the client's ISL rule; a real reranker counts the query once per passage plus
// separators).
//
// Timing and faults (session side, rankings_route.cc): as /v1/embeddings, the answer is written
// at the latency model's TTFT for the prompt tokens; every --error-kind applies; --record lines
// carry num_passages, query_tokens, passage_tokens and prompt_tokens.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "responses.h"
#include "text_source.h"

namespace servebench::mock {

enum class RankingsApi { kNim, kTei, kCohere };

struct RankingsRequest {
  std::string model;                   // "" when absent
  uint64_t query_key = 0;              // hash of the query text
  std::vector<uint64_t> passage_keys;  // per passage: hash of its text
  int64_t query_tokens = 0;
  int64_t passage_tokens = 0;  // summed over passages
  int64_t top_n = -1;          // -1: all
  int64_t prompt_tokens() const { return query_tokens + passage_tokens; }
};

// Errors (→ HTTP 400, one line naming the field): invalid JSON, a non-object body, a missing or
// mistyped query, a missing, mistyped or empty passage list, a top_n below 0.
Result<RankingsRequest> parse_rankings_request(RankingsApi api, std::string_view body,
                                               const TokenCounter& counter);

std::string rankings_body(RankingsApi api, const ResponseHead& head,
                          const RankingsRequest& request);

}  // namespace servebench::mock
