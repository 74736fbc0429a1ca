// The response parser of OpenAI-style embeddings answers:
//   {"object":"list","data":[{"object":"embedding","index":0,"embedding":[...]},...],
//    "model":..,"usage":{"prompt_tokens":N,"total_tokens":N}}
// data[] elements → RequestRecord::output_items (the vectors are not decoded), usage →
// RequestRecord::usage, one kEmpty chunk at the body's arrival. {"error":...} or
// {"object":"error",...} → kServerError; invalid JSON, or an object without a data array →
// kMalformed. Streamed events are not expected (the type does not stream): each is parsed as a
// whole body, and `event: error` is a server error.
//
// Thread safety: one parser per worker.
#pragma once

#include <memory>

#include "endpoints/endpoint.h"

namespace servebench::endpoints {

std::unique_ptr<EventParser> make_embeddings_parser();

}  // namespace servebench::endpoints
