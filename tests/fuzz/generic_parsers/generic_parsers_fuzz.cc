// Fuzz target for the huggingface_generate, solido_rag and auto-detecting (raw/template)
// response parsers. The first byte picks the parser, the rest is one SSE event's data and a
// whole body. Any bytes must give a status, never a crash; a kOk event appends exactly one chunk
// whose text range lies inside the output text; an error appends nothing and sets the record's
// error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "endpoints/endpoint.h"

namespace {

using servebench::endpoints::EventParser;
using servebench::endpoints::ParseStatus;

void check(bool ok) {
  if (!ok) std::abort();
}

void check_record(const servebench::record::RequestRecord& rec) {
  for (const auto& c : rec.chunks) {
    check(static_cast<size_t>(c.text_offset) + c.text_bytes <= rec.output_text.size());
  }
}

std::unique_ptr<EventParser> configured(const char* type, const char* extra) {
  servebench::endpoints::EndpointOptions o;
  o.model = "m";
  o.extra_inputs_json = extra;
  auto e = servebench::endpoints::make_endpoint(type, o);
  check(e.has_value());
  auto p = (*e)->make_parser();
  check(p != nullptr);
  return p;
}

EventParser* pick(uint8_t selector) {
  static std::unique_ptr<EventParser> parsers[] = {
      servebench::endpoints::make_event_parser("huggingface_generate"),
      servebench::endpoints::make_event_parser("solido_rag"),
      servebench::endpoints::make_event_parser("raw"),
      configured("template",
                 R"({"payload_template":"nv-embedqa","response_field":"choices[*].text"})"),
      configured("raw", R"({"response_field":"data[0].embedding"})"),
  };
  return parsers[selector % 5].get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  EventParser* parser = pick(data[0]);
  std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  servebench::record::RequestRecord rec;
  for (int round = 0; round < 2; ++round) {
    const size_t chunks = rec.chunks.size();
    const size_t out = rec.output_text.size();
    const ParseStatus s = parser->parse_event(in, 7, &rec);
    if (s == ParseStatus::kOk) {
      check(rec.chunks.size() == chunks || rec.chunks.size() == chunks + 1);
    } else {
      check(rec.chunks.size() == chunks && rec.output_text.size() == out);
    }
    if (s == ParseStatus::kMalformed || s == ParseStatus::kServerError) {
      check(rec.error != servebench::record::ErrorKind::kNone);
    }
    check_record(rec);
  }
  servebench::record::RequestRecord body_rec;
  parser->parse_body(in, 9, &body_rec);
  check_record(body_rec);
  check(body_rec.chunks.size() <= 1);
  return 0;
}
