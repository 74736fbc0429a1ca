// The image generation route of servebench-mock, as OpenAI's Images API answers:
//   POST /v1/images/generations
//     {"prompt":"..","model":..,"n":N,"response_format":"b64_json"|"url","size":"WxH",
//      "stream":bool,"partial_images":P,...}      (other members are accepted and ignored)
//   body    {"created":s,"data":[{"b64_json":"<PNG>","revised_prompt":".."},..],"size":"WxH",
//            "quality":"medium","output_format":"png","usage":{..}}
//   stream  per image: P partial events, then one completed event (SSE, `event:` named):
//            event: image_generation.partial_image
//            data: {"type":"image_generation.partial_image","b64_json":"..","partial_image_index":k,..}
//            event: image_generation.completed
//            data: {"type":"image_generation.completed","b64_json":"..","usage":{..},..}
//   url     response_format "url" answers {"url":"http://<host>/v1/images/mock/<key>-WxH.png"};
//           GET on that path returns the same PNG (regenerated from the name, nothing stored).
// Images are real PNGs (png_writer.h) of the requested size (default 64x64; "auto" too; each
// side at most 1024), seeded by (server seed, request index, image index).
// usage: input_tokens = the prompt's token count, output_tokens = 1 per 16x16 pixel block per
// image (a stand-in; the Images API reports its own), total = the sum.
//
// Timing: the image(s) are due at the latency model's TTFT for the prompt (--ttft-ms plus
// --prefill-us-per-token × prompt tokens, jittered by --jitter-cv); streamed partial image k
// (0-based) at TTFT + k × --itl-ms, and the completed images at TTFT + P × --itl-ms. Faults as
// the other routes (--error-rate/--error-kind); --record lines carry prompt_tokens, n, width,
// height, response_format, stream, partial_images and due_ms (the planned latency).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "text_source.h"

namespace servebench::mock {

struct ImageRequest {
  std::string model;  // "" when absent
  int64_t prompt_tokens = 0;
  int64_t n = 1;
  int width = 64;
  int height = 64;
  bool url = false;  // response_format "url"
  bool stream = false;
  int64_t partial_images = 0;
};

// Errors (→ HTTP 400, one line naming the field): invalid JSON, a non-object body, a missing
// or empty prompt, n outside 1..10, an unknown response_format, a size not "WxH" within
// 1..1024 (or "auto"), partial_images outside 0..3.
Result<ImageRequest> parse_image_request(std::string_view body, const TokenCounter& counter);

// The PNG a key and size name: "<16 hex digits>-<W>x<H>.png" (the tail of a url answer).
// Empty when the name is not one.
std::string image_for_name(std::string_view name);

}  // namespace servebench::mock
