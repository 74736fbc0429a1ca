// NIM image retrieval (POST /v1/infer) in servebench-mock:
//   {"input":[{"type":"image_url","url":"data:image/png;base64,..."},..]}
//   → {"data":[{"index":i,"bounding_boxes":{"table":[{"x_min":..,"y_min":..,"x_max":..,
//      "y_max":..,"confidence":..}]}},..],"usage":{"num_images":N}}
// Every image is decoded (media_check.h); one that does not decode, an empty list or another
// part type is a 400. The answer is due at TTFT + N × --itl-ms (a base latency plus one step per
// image, as NIM's page-elements model runs them). --record lines carry num_images, the images'
// formats and sizes (media) and due_ms.
#include <simdjson.h>

#include <cstdio>

#include "json_line.h"
#include "media_check.h"
#include "session.h"

namespace servebench::mock {

namespace {

using simdjson::dom::element;

Result<std::vector<MediaSeen>> parse_infer_request(std::string_view body) {
  auto bad = [](std::string m) { return tl::unexpected(Error{ErrorCode::kInvalidArgument, m}); };
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(body.data(), body.size()).get(doc) != simdjson::SUCCESS || !doc.is_object())
    return bad("request body must be a JSON object");
  simdjson::dom::array input;
  if (doc["input"].get(input) != simdjson::SUCCESS || input.size() == 0)
    return bad("'input' must be a non-empty list of image_url parts");
  std::vector<MediaSeen> seen;
  for (element part : input) {
    element type, url;
    if (!part.is_object() || part["type"].get(type) != simdjson::SUCCESS || !type.is_string() ||
        type.get_string().value_unsafe() != "image_url" ||
        part["url"].get(url) != simdjson::SUCCESS || !url.is_string())
      return bad("'input' entries must be {\"type\":\"image_url\",\"url\":..}");
    auto m = inspect_media("image", url.get_string().value_unsafe());
    if (!m) return tl::unexpected(m.error());
    seen.push_back(*m);
  }
  return seen;
}

std::string infer_body(size_t images, core::Rng& rng) {
  std::string out = "{\"data\":[";
  for (size_t i = 0; i < images; ++i) {
    if (i) out.push_back(',');
    char box[160];
    const double x = rng.uniform(0.0, 0.5), y = rng.uniform(0.0, 0.5);
    std::snprintf(box, sizeof(box),
                  "{\"index\":%zu,\"bounding_boxes\":{\"table\":[{\"x_min\":%.4f,\"y_min\":%.4f,"
                  "\"x_max\":%.4f,\"y_max\":%.4f,\"confidence\":%.4f}]}}",
                  i, x, y, x + 0.25, y + 0.25, rng.uniform(0.5, 1.0));
    out.append(box);
  }
  out.append("],\"usage\":{\"num_images\":");
  append_json_int(static_cast<int64_t>(images), &out);
  out.append("}}");
  return out;
}

}  // namespace

void Session::handle_image_retrieval() {
  const auto& req = parser_->get();
  Generation g;
  if (!begin_generation(&g)) return;
  auto parsed = parse_infer_request(req.body());
  if (!parsed) return answer_bad_request(parsed.error().message);
  uint64_t index = 0;
  core::Rng rng = draw_request(&g, &index);
  g.finish_reason = "stop";
  g.head.id = "infer-" + std::to_string(index);
  const int64_t images = static_cast<int64_t>(parsed->size());
  const int64_t due = g.received_ns + plan_events(g.knobs, 0, 0, 0, rng).back().offset_ns +
                      images * g.knobs.itl_ns;
  g.prepared_body = infer_body(parsed->size(), rng);
  if (state_.record) {
    JsonLine r;
    record_line_head(g, "", &r);
    r.num("num_images", images)
        .raw("media", media_json(*parsed))
        .num("due_ms", (due - g.received_ns) / 1'000'000)
        .str("x_request_id", g.x_request_id)
        .str("fault", fault_kind_name(g.fault));
    state_.record->write_line(r.finish());
  }
  gen_ = std::move(g);
  if (answer_http_fault()) return;
  wait_then(due, &Session::write_embeddings_response);  // the same one-piece answer
}

}  // namespace servebench::mock
