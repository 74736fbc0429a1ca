// The response parser of the `template` and `raw` types: an optional JMESPath response field
// (jmespath.h), else auto-detection of what the answer carries, as AIPerf does:
//
//   field given   its value: a string → output text; a list of numbers or of number lists →
//                 embeddings (output_items = vectors); a list of objects → rankings
//                 (output_items = entries). On a miss: kAutoDetect falls back to the detection
//                 below (raw); kError makes a non-streamed body an error naming the field and
//                 skips a streamed event (template).
//   auto-detect   (object) embeddings: data[] of {"object":"embedding"} items, or an
//                 "embeddings"/"embedding" list; rankings: a "rankings" or "results" list;
//                 text: the first string (or list of strings, joined) of "text", "content",
//                 "response", "output", "result", else choices[0].text, .message.content,
//                 .delta.content. A non-object JSON value is converted as a field value.
//   not JSON      the payload itself is the output text, unless it opens with '{' or '[' (a
//                 broken JSON document, e.g. truncated: kMalformed).
//
// Also: an OpenAI `usage` object → RequestRecord::usage; {"error":..} or {"object":"error"} and
// `event: error` → server error; "[DONE]" ends a stream; an empty event is a keep-alive.
// Every payload appends one chunk: kContent with text, else kEmpty (kUsage with usage only).
//
// Thread safety: one parser per worker; the compiled field is shared read-only.
#pragma once

#include <memory>

#include "endpoints/endpoint.h"
#include "endpoints/jmespath.h"

namespace servebench::endpoints {

enum class FieldMiss { kAutoDetect, kError };

// `field` may be null (auto-detection only).
std::unique_ptr<EventParser> make_detect_parser(std::shared_ptr<const JmesPath> field,
                                                FieldMiss miss);

// The compiled `response_field` of --extra-inputs (null when not given); a text outside the
// JMESPath subset is a usage error (template_endpoint.cc).
Result<std::shared_ptr<const JmesPath>> response_field_option(const EndpointOptions& options);

}  // namespace servebench::endpoints
