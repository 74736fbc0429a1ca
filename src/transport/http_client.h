// HttpClient: starts HTTP requests on a worker's EventLoop and reports response bytes as they
// arrive. The receive timestamp is taken when bytes are read from the socket (right after
// read(), or in libcurl's write callback), before any SSE or JSON parsing, and passed along
// with the bytes.
//
// Implementations (http_client_factory.cc picks one per URL): the native HTTP/1.1 client
// (http1_client.h: epoll, keep-alive pool, cleartext http://) and libcurl multi_socket
// (curl_client.cc: TLS, HTTP/2, proxies). SERVEBENCH_HTTP_CLIENT=curl forces libcurl.
//
// Thread safety: one client per EventLoop; all calls and callbacks on the loop thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "record/request_record.h"
#include "transport/event_loop.h"

namespace servebench::transport {

struct HttpRequest {
  std::string url;                   // full URL: scheme://host:port/path
  std::string method = "POST";
  std::string body;                  // sent as-is
  std::vector<std::string> headers;  // "Name: value" lines (Content-Type, Authorization, ...)
  int64_t timeout_ns = 0;            // whole-request timeout; 0 = none
  bool fresh_connection = false;     // --connection-reuse-strategy never: new connection, closed after
  uint64_t connection_group = 0;     // sticky sessions: same non-zero group reuses one connection
};

// Set-up of a new connection (steady ns; 0 = not known). DNS is resolved once per host and
// cached by the native client, so dns_done_ns == start_ns there after the first lookup.
struct ConnectTiming {
  int64_t start_ns = 0;      // connection set-up began (after any wait for a free slot)
  int64_t dns_done_ns = 0;   // name resolved
  int64_t connected_ns = 0;  // TCP connected
  int64_t tls_done_ns = 0;   // TLS handshake done (0 for cleartext)
};

// Callbacks for one transfer. All timestamps are steady ns from the loop's clock.
class ResponseHandler {
 public:
  virtual ~ResponseHandler() = default;
  // The request was fully written (upload done).
  virtual void on_request_sent(int64_t sent_ns) {}
  // How many socket writes carried the request; called just before on_request_sent by the
  // native HTTP/1.1 client (libcurl does not report it).
  virtual void on_request_writes(int32_t writes) {}
  // The transfer opened a new connection; called before on_request_sent. Not called when a
  // pooled connection was reused.
  virtual void on_connect_timing(const ConnectTiming& timing) {}
  // Status line and headers received.
  virtual void on_headers(int http_status, int64_t recv_ns) = 0;
  // Body bytes (already de-chunked), stamped when they were read from the socket.
  virtual void on_body(std::string_view bytes, int64_t recv_ns) = 0;
  // The transfer ended. error == kNone on a complete response (any HTTP status);
  // otherwise kConnect, kTls, kTimeout, kStreamReset, kCancelled, kOther with a message.
  virtual void on_complete(record::ErrorKind error, std::string_view message, int64_t end_ns,
                           bool connection_reused) = 0;
};

struct ClientOptions {
  int http_version = 1;              // 1 = HTTP/1.1, 2 = HTTP/2 (prior knowledge for http://, ALPN for https://)
  int64_t connect_timeout_ns = 10'000'000'000;
  size_t max_connections = 0;        // 0 = unlimited
  bool verify_tls = true;
  size_t receive_buffer_bytes = 16 * 1024;
  // make_http_client: plain http:// HTTP/1.1 requests use the native client (http1_client.h),
  // which costs about a third of libcurl's CPU per request; false forces libcurl everywhere.
  bool native_http1 = true;
};

class HttpClient {
 public:
  using TransferId = uint64_t;
  virtual ~HttpClient() = default;
  // Starts a transfer; `handler` must outlive it (until on_complete). The request is copied.
  // Called outside any handler callback, the request is handed to the socket before start()
  // returns when a pooled connection is free (libcurl path). From inside a handler callback the
  // transfer begins as soon as that callback returns. A Content-Type: application/json header
  // is added when the request has a body and no Content-Type. on_complete is never called from
  // inside start().
  virtual Result<TransferId> start(const HttpRequest& request, ResponseHandler* handler) = 0;
  // Aborts a transfer; on_complete(kCancelled) is delivered before this returns -- except when
  // called from inside one of this client's handler callbacks (on_body etc.), where no more
  // data is delivered and on_complete(kCancelled) follows as soon as that callback returns.
  // Unknown or finished ids are ignored.
  virtual void cancel(TransferId id) = 0;
  virtual size_t in_flight() const = 0;
  // Sticky sessions: closes the connection(s) kept for `group` once none of its transfers is in
  // flight (call when a session ends). Default: nothing to release.
  virtual void release_group(uint64_t group) {}
};

// libcurl multi_socket client driven by `loop`. The load engine should normally use
// make_http_client (transport/http1_client.h), which picks the native HTTP/1.1 client for plain
// http:// and libcurl for the rest.
Result<std::unique_ptr<HttpClient>> make_curl_client(EventLoop& loop, const ClientOptions& options);

}  // namespace servebench::transport
