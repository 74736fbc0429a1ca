// The fuzz harness of the chat-like response parsers (`responses`, `messages`): any bytes, as an
// SSE event's data (under its own event name and under "error") and as a whole body, must give a
// status, never a crash, and leave the record consistent: chunk text ranges inside their text
// buffers, at most one chunk per payload, nothing appended on kMalformed / kServerError, an
// error recorded with either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "endpoints/endpoint.h"

namespace servebench::fuzz {

inline void check(bool ok) {
  if (!ok) std::abort();
}

inline void check_record(const record::RequestRecord& rec) {
  for (const auto& c : rec.chunks) {
    const std::string& src =
        c.kind == record::ChunkKind::kReasoning ? rec.reasoning_text : rec.output_text;
    check(static_cast<size_t>(c.text_offset) + c.text_bytes <= src.size());
  }
}

inline int run_chatlike_parser(endpoints::EventParser* parser, const uint8_t* data, size_t size) {
  using endpoints::ParseStatus;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // The first line, when the input has several, is the SSE event name.
  std::string_view name, payload = in;
  if (const size_t nl = in.find('\n'); nl != std::string_view::npos) {
    name = in.substr(0, nl);
    payload = in.substr(nl + 1);
  }
  record::RequestRecord rec;
  for (int round = 0; round < 2; ++round) {  // the second parse must append, not clobber
    const size_t chunks = rec.chunks.size();
    const size_t out = rec.output_text.size() + rec.reasoning_text.size();
    const ParseStatus s = parser->parse_event(endpoints::SseEventView{name, payload}, 7, &rec);
    if (s == ParseStatus::kOk || s == ParseStatus::kDone) {
      check(rec.chunks.size() <= chunks + 1);
    } else {
      check(rec.chunks.size() == chunks &&
            rec.output_text.size() + rec.reasoning_text.size() == out);
      check(rec.error != record::ErrorKind::kNone);
    }
    check_record(rec);
  }
  record::RequestRecord err_rec;
  check(parser->parse_event(endpoints::SseEventView{"error", payload}, 8, &err_rec) ==
        ParseStatus::kServerError);
  record::RequestRecord body_rec;
  parser->parse_body(in, 9, &body_rec);
  check_record(body_rec);
  check(body_rec.chunks.size() <= 1);
  return 0;
}

}  // namespace servebench::fuzz
