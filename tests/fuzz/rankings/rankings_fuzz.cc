// Fuzz target for the rankings response parsers (one per answer shape): any bytes, as a whole
// body or as a stray SSE event, must give a status, never a crash, and the record must stay
// consistent: a kOk answer adds exactly one empty chunk and a non-negative item count, and
// adds no text; kMalformed / kServerError add nothing but an error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "endpoints/endpoint.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using servebench::endpoints::ParseStatus;
  static std::unique_ptr<servebench::endpoints::EventParser> parsers[] = {
      servebench::endpoints::make_event_parser("nim_rankings"),
      servebench::endpoints::make_event_parser("hf_tei_rankings"),
      servebench::endpoints::make_event_parser("cohere_rankings"),
  };
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  for (auto& parser : parsers) {
    check(parser != nullptr);
    servebench::record::RequestRecord rec;
    for (int round = 0; round < 2; ++round) {  // the same record twice: counts accumulate
      const size_t chunks = rec.chunks.size();
      const int64_t items = rec.output_items;
      const ParseStatus s =
          round == 0 ? parser->parse_body(in, 9, &rec) : parser->parse_event(in, 9, &rec);
      if (s == ParseStatus::kOk && rec.chunks.size() == chunks + 1) {
        check(rec.output_items >= 0 && rec.output_items >= items);
        check(rec.chunks.back().kind == servebench::record::ChunkKind::kEmpty);
      } else {
        check(rec.chunks.size() == chunks);
      }
      if (s == ParseStatus::kMalformed || s == ParseStatus::kServerError)
        check(rec.error != servebench::record::ErrorKind::kNone);
      check(rec.output_text.empty() && rec.reasoning_text.empty());
    }
  }
  return 0;
}
