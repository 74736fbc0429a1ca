// The HTTP/1.1 response grammar pieces Http1ResponseParser needs (RFC 9112): the status line,
// header and trailer fields (with obsolete line folding), the framing fields (Connection,
// Proxy-Connection, Content-Length, Transfer-Encoding) and chunk-size lines with extensions.
// A head is parsed straight from the bytes read when it arrived whole (the usual case); the
// parser gathers a split one first. Malformed input gets a one-line reason.
//
// Acceptance follows Boost.Beast 1.74's basic_parser, which this replaced (differential test:
// tests/unit/transport/http1_response_parser_diff_test.cc): HTTP/1.0 and 1.1 only, CRLF line
// endings, tokens and field values by RFC 9110's character classes, Content-Length as a list of
// equal decimals that conflicts with chunked, a second Transfer-Encoding after chunked rejected,
// chunked only when it is the last coding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace servebench::transport::http1 {

// What the fields of one response (head and trailers) said about its framing.
struct Framing {
  bool http11 = false;
  bool close = false;       // Connection: close
  bool keep_alive = false;  // Connection: keep-alive (matters for HTTP/1.0)
  bool has_length = false;
  uint64_t length = 0;
  bool chunked = false;
};

// A response head at the start of `s`: status line, fields, empty line. Returns its length and
// sets *status and *framing; returns 0 when it has not all arrived yet (error left empty) or is
// malformed (*error says why).
size_t parse_head(std::string_view s, int* status, Framing* framing, std::string* error);

// A field section at the start of `s` (trailers): fields and the empty line, or the empty line
// alone. Returns its length, applying the framing fields to *framing; 0 as for parse_head.
size_t parse_fields(std::string_view s, Framing* framing, std::string* error);

// `line` is a chunk-size line with its CRLF: "1a;name=value\r\n".
bool parse_chunk_line(std::string_view line, uint64_t* size, std::string* error);

}  // namespace servebench::transport::http1
