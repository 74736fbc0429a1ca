// Http1ResponseParser: incremental HTTP/1.1 response parsing for the native HTTP/1.1 client,
// built on Boost.Beast's basic_parser (kept out of this header). Fed bytes in any split, it
// reports the status when the header is complete and the body bytes as they arrive, de-chunked
// (Content-Length, chunked and close-delimited bodies; 1xx interim responses are skipped).
//
// Thread safety: one parser per connection; not shared.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace servebench::transport {

class Http1ResponseParser {
 public:
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void on_response_headers(int status) = 0;
    virtual void on_response_body(std::string_view bytes) = 0;
  };

  Http1ResponseParser();
  ~Http1ResponseParser();

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
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace servebench::transport
