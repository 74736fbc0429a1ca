// The response parser of the image types (image_generation, image_edit): OpenAI's Images API
// answers, as AIPerf reads them.
//   body    {"created":..,"data":[{"b64_json":".."|"url":"..","revised_prompt":..},..],
//            "size":..,"quality":..,"output_format":..,"usage":{..}?}
//           → output_items += the data[] entries (images; the pixels are never decoded).
//   stream  one event per image step (`event: image_generation.partial_image` /
//           `image_generation.completed`, the type repeated in the data):
//           {"type":"image_generation.partial_image","b64_json":"..","partial_image_index":i,..}
//           {"type":"image_generation.completed","b64_json":"..","usage":{..},..}
//           → a partial image is progress; a completed one (or a b64_json event without a
//           partial_image_index, as SGLang streams) counts one image in output_items.
// Every event or body is one kEmpty chunk at its arrival: images carry no tokens, so there is no
// TTFT or ITL, and request latency ends when the whole response arrived (response_complete_ns).
// usage (input_tokens/output_tokens/total_tokens, as the Images API reports them) →
// RequestRecord::usage. {"error":..} or {"object":"error",..} → kServerError; invalid JSON or a
// body with neither data[] nor b64_json → kMalformed.
//
// Thread safety: one parser per worker.
#pragma once

#include <memory>

#include "endpoints/endpoint.h"

namespace servebench::endpoints {

std::unique_ptr<EventParser> make_image_parser();

}  // namespace servebench::endpoints
