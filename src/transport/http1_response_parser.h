// Http1ResponseParser: incremental HTTP/1.1 response parsing for the native HTTP/1.1 client.
// Fed bytes in any split, it reports the status when the header is complete and the body bytes
// as they arrive, de-chunked (Content-Length, chunked and close-delimited bodies; 1xx interim
// responses are skipped). The grammar is in http1_fields.h; a head, chunk-size line or trailer
// section split across reads is gathered in one buffer (64 KiB at most), body bytes are passed
// through without copying.
//
// Thread safety: one parser per connection; not shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "transport/http1_fields.h"

namespace servebench::transport {

class Http1ResponseParser {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void on_response_headers(int status) = 0;
    virtual void on_response_body(std::string_view bytes) = 0;
  };

  // Begins a new response; `sink` receives its callbacks.
  void start(Sink* sink);
  // Consumes the bytes that belong to the current response (a header split across calls is
  // buffered internally). Returns the number of bytes consumed (less than bytes.size() only when
  // the response completed or failed); on malformed input returns 0 and sets *error.
  size_t feed(std::string_view bytes, std::string* error);
  // The connection reached EOF. Returns true when that completes the response (a
  // close-delimited body), false when the response is incomplete.
  bool feed_eof();

  bool done() const;
  bool headers_done() const;
  // The connection may carry another request (HTTP/1.1 keep-alive and a complete response).
  bool keep_alive() const;

 private:
  enum class State : uint8_t { kHead, kLength, kUntilClose, kChunkLine, kChunkData, kChunkEnd, kTrailers, kDone, kFailed };
  size_t step(std::string_view in, std::string* error);
  size_t head(std::string_view in, std::string* error);
  size_t chunk_line(std::string_view in, std::string* error);
  size_t chunk_end(std::string_view in, std::string* error);
  size_t trailers(std::string_view in, std::string* error);
  size_t body(std::string_view in);
  // Gathers bytes up to a unit's terminator ("\r\n" for a line; for a block an empty line, or
  // "\r\n" alone at its start). Returns the bytes of `in` used; *unit is empty until complete.
  size_t gather(std::string_view in, bool block, std::string_view* unit, std::string* error);
  // Appends the bytes of an incomplete unit to pending_; all of `in` is used.
  size_t keep(std::string_view in, std::string* error);

  Sink* sink_ = nullptr;
  State state_ = State::kHead;
  std::string pending_;
  uint64_t remaining_ = 0;
  int status_ = 0;
  uint8_t crlf_seen_ = 0;  // kChunkEnd: bytes of the CRLF after a chunk's data already seen
  bool until_close_ = false;  // the body ends at EOF, so the connection cannot be reused
  http1::Framing framing_;
};

}  // namespace servebench::transport
