// The HTTP/1.1 response grammar pieces Http1ResponseParser needs (RFC 9112): the status line,
// header and trailer fields (with obsolete line folding), the framing fields (Connection,
// Proxy-Connection, Content-Length, Transfer-Encoding) and chunk-size lines with extensions.
// Each function takes a complete unit (the parser gathers bytes until a unit's terminator has
// arrived) and either accepts it or returns false with a one-line reason.
//
// Acceptance follows Boost.Beast 1.74's basic_parser, which this replaced (differential test:
// tests/unit/transport/http1_response_parser_diff_test.cc): HTTP/1.0 and 1.1 only, CRLF line
// endings, tokens and field values by RFC 9110's character classes, Content-Length as a list of
// equal decimals that conflicts with chunked, a second Transfer-Encoding after chunked rejected,
// chunked only when it is the last coding.
#pragma once

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

// `line` is the status line with its CRLF: "HTTP/1.1 200 OK\r\n". Sets *status and
// framing->http11.
bool parse_status_line(std::string_view line, int* status, Framing* framing, std::string* error);

// `block` is a field section ending with its empty line: "A: 1\r\nB: 2\r\n\r\n", or just
// "\r\n". Applies the framing fields to *framing.
bool parse_fields(std::string_view block, Framing* framing, std::string* error);

// `line` is a chunk-size line with its CRLF: "1a;name=value\r\n".
bool parse_chunk_line(std::string_view line, uint64_t* size, std::string* error);

}  // namespace servebench::transport::http1
