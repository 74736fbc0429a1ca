// Helpers shared by the response parsers: how a malformed payload or a server error object is
// written into a record (the first error wins; messages are one line with a bounded excerpt).
// Internal to src/endpoints/.
#pragma once

#include <string>
#include <string_view>

#include "core/units.h"
#include "endpoints/endpoint.h"
#include "record/request_record.h"

namespace servebench::endpoints {

inline constexpr size_t kExcerptBytes = 200;

// The first kExcerptBytes of `s` on one line ("..." when cut).
inline std::string excerpt(std::string_view s) {
  std::string out(s.substr(0, kExcerptBytes));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  if (s.size() > kExcerptBytes) out += "...";
  return out;
}

// JSON's whitespace is a subset of core::trim's set; a \v or \f around a payload is not valid
// JSON either way, so the one trim serves. Every space is <= ' ': a payload that starts and ends
// with other bytes (nearly every event) skips the call.
inline std::string_view trim_json_space(std::string_view s) {
  if (!s.empty() && static_cast<unsigned char>(s.front()) > ' ' &&
      static_cast<unsigned char>(s.back()) > ' ') {
    return s;
  }
  return core::trim(s);
}

inline ParseStatus set_malformed(std::string_view data, record::RequestRecord* rec,
                                 std::string_view why) {
  if (rec->error == record::ErrorKind::kNone) {
    rec->error = record::ErrorKind::kMalformedSse;
    rec->error_message = std::string(why) + ": " + excerpt(data);
  }
  return ParseStatus::kMalformed;
}

// `message`: the error object's message, or "" to quote the payload itself.
inline ParseStatus set_server_error(std::string_view message, std::string_view payload,
                                    record::RequestRecord* rec,
                                    std::string_view prefix = "server error: ") {
  if (rec->error == record::ErrorKind::kNone) {
    rec->error = record::ErrorKind::kServerErrorEvent;
    rec->error_message = std::string(prefix) + excerpt(message.empty() ? payload : message);
  }
  return ParseStatus::kServerError;
}

}  // namespace servebench::endpoints
