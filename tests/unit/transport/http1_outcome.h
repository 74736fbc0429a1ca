// Test helpers for HTTP/1.1 response parsers (Http1ResponseParser, the Beast oracle): a sink that
// collects what a parser reports, and one feeding of a response cut into pieces.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "transport/http1_response_parser.h"

namespace servebench::transport::testing {

struct CollectSink : Http1ResponseParser::Sink {
  int status = 0;
  int header_calls = 0;
  std::string body;
  void on_response_headers(int s) override {
    status = s;
    ++header_calls;
  }
  void on_response_body(std::string_view b) override { body.append(b); }
};

// A completed response as the parser saw it; a failed or incomplete one is ResponseOutcome{}
// (parsers may notice a malformed byte at different times, so only completion is compared).
struct ResponseOutcome {
  bool done = false;
  int status = 0;
  int header_calls = 0;
  std::string body;
  bool keep_alive = false;
  size_t consumed = 0;  // bytes of the input that belonged to the response
  bool operator==(const ResponseOutcome&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const ResponseOutcome& o) {
  return os << "{done=" << o.done << " status=" << o.status << " headers=" << o.header_calls
            << " body=" << o.body.size() << "B keep_alive=" << o.keep_alive << " consumed=" << o.consumed << "}";
}

// Feeds `input` cut at `cuts` (ascending offsets; each piece a fresh copy, so a parser cannot
// keep views into it), then EOF.
template <class Parser>
ResponseOutcome feed_response(std::string_view input, const std::vector<size_t>& cuts) {
  Parser p;
  CollectSink c;
  p.start(&c);
  ResponseOutcome o;
  size_t from = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(input.size());
  for (size_t end : ends) {
    if (end < from || from == input.size()) continue;
    const std::string piece(input.substr(from, end - from));
    from = end;
    std::string err;
    const size_t n = p.feed(piece, &err);
    if (!err.empty()) return {};
    o.consumed += n;
    if (p.done()) break;
  }
  if (!p.done() && !p.feed_eof()) return {};
  o.done = true;
  o.status = c.status;
  o.header_calls = c.header_calls;
  o.body = c.body;
  o.keep_alive = p.keep_alive();
  return o;
}

}  // namespace servebench::transport::testing
