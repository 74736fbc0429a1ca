// Request-side helpers of the native HTTP/1.1 client: URL resolution and request bytes.
//
// Thread safety: free functions; resolve_http_url blocks in getaddrinfo (call it once per
// host:port, as Http1Client does).
#pragma once

#include <sys/socket.h>

#include <string>
#include <string_view>

#include "core/result.h"
#include "transport/http_client.h"

namespace servebench::transport {

struct Http1Endpoint {
  std::string host_header;  // host[:port] exactly as in the URL
  sockaddr_storage addr{};
  socklen_t addr_len = 0;
};

// Parses http://host[:port]/path (IPv6 literals in brackets) and resolves the host, IPv4
// preferred (AIPerf's default). Other schemes and userinfo are kInvalidArgument errors.
Result<Http1Endpoint> resolve_http_url(const std::string& url);

// The request bytes: request line, Host, the caller's headers, Content-Type: application/json
// when there is a body and no Content-Type, Content-Length for bodies and POST/PUT, the body.
void build_http1_request(const HttpRequest& request, std::string_view host_header, std::string* out);

}  // namespace servebench::transport
