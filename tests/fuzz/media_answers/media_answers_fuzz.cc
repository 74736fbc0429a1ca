// Fuzz target for the media generation response parsers: any bytes, as an image_generation body
// or SSE event, or as a video_generation job answer of each step (submit, poll, download), must
// give a status, never a crash, and keep the record consistent: no text ever, a non-negative
// image count, an error on kMalformed/kServerError, and a follow-up URL only after a kOk answer
// (the submit's under the base URL, a poll's the polled URL or its download).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "endpoints/endpoint.h"
#include "endpoints/registry.h"

namespace {

using servebench::endpoints::EventParser;
using servebench::endpoints::FollowUp;
using servebench::endpoints::ParseStatus;
using servebench::endpoints::StepContext;
using servebench::record::RequestRecord;

void check(bool ok) {
  if (!ok) std::abort();
}

void check_record(ParseStatus s, const RequestRecord& rec) {
  if (s == ParseStatus::kMalformed || s == ParseStatus::kServerError)
    check(rec.error != servebench::record::ErrorKind::kNone);
  check(rec.output_text.empty() && rec.reasoning_text.empty());
  check(rec.output_items >= -1);
}

void image(EventParser& parser, std::string_view in) {
  RequestRecord rec;
  check_record(parser.parse_body(in, 9, &rec), rec);
  check_record(parser.parse_event(in, 10, &rec), rec);
  for (const auto& c : rec.chunks) check(c.kind == servebench::record::ChunkKind::kEmpty);
}

void video(EventParser& parser, std::string_view in) {
  const std::string_view base = "http://h/v1/videos";
  for (int32_t kind = 0; kind < 3; ++kind) {
    RequestRecord rec;
    FollowUp next;
    const StepContext ctx{kind == 0 ? 0 : 1, kind, base, "http://h/v1/videos/j"};
    const ParseStatus s = parser.parse_step(in, 9, ctx, &rec, &next);
    check_record(s, rec);
    if (s != ParseStatus::kOk || !rec.ok()) check(next.url.empty());
    if (!next.url.empty()) {
      check(next.delay_ns >= 0);
      if (kind == 0) check(next.url.starts_with(std::string(base) + "/"));
      if (kind == 2) check(false);  // a download is the last step
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<EventParser> image_parser =
      servebench::endpoints::make_event_parser("image_generation");
  static std::unique_ptr<EventParser> video_parser = [] {
    servebench::endpoints::EndpointOptions o;
    o.model = "m";
    o.download_video_content = true;
    auto ep = servebench::endpoints::make_endpoint("video_generation", o);
    check(ep.has_value());
    return (*ep)->make_parser();
  }();
  check(image_parser != nullptr && video_parser != nullptr);
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  image(*image_parser, in);
  video(*video_parser, in);
  return 0;
}
