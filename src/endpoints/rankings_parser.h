// The response parser of the rankings types. Three answer shapes, one per API:
//   kNim     NIM /v1/ranking:  {"rankings":[{"index":i,"logit":x},...],"usage":{..}?}
//   kTei     TEI /rerank:      [{"index":i,"score":x},...], or {"results":[...]} (AIPerf accepts
//                              both; llama-server answers a `texts` body with the bare list)
//   kCohere  Cohere /v2/rerank and the Jina/Cohere-style /v1/rerank of vLLM and llama-server:
//                              {"results":[{"index":i,"relevance_score":x},...],"usage":{..}?}
// The ranked entries → RequestRecord::output_items (their scores are not decoded: a benchmark
// needs their number, not their order); usage.prompt_tokens/total_tokens → RequestRecord::usage
// when the server reports them; one kEmpty chunk at the body's arrival (no content, so no TTFT).
// {"error":...} (an object or TEI's string) or {"object":"error",..} → kServerError; invalid JSON,
// a bare scalar, or an answer without the shape's list → kMalformed, naming the list expected.
// An empty list is a valid answer (top_n 0). Streamed events are not expected (rankings do not
// stream): each is parsed as a whole body, and `event: error` is a server error.
//
// Thread safety: one parser per worker.
#pragma once

#include <memory>

#include "endpoints/endpoint.h"

namespace servebench::endpoints {

enum class RankingsShape { kNim, kTei, kCohere };

std::unique_ptr<EventParser> make_rankings_parser(RankingsShape shape);

}  // namespace servebench::endpoints
