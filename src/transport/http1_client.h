// The native HTTP/1.1 client and the factory that picks a client per request.
//
// make_http1_client: plain http:// over HTTP/1.1 only (no TLS, no proxies); see http1_client.cc.
// make_http_client: the one the load engine should use. It sends plain http:// HTTP/1.1
// requests through the native client when ClientOptions::native_http1 is set (the default) and
// no proxy environment variable (http_proxy, HTTP_PROXY, all_proxy, ALL_PROXY) is set, and
// everything else (https://, HTTP/2, proxies) through libcurl. Both behave the same towards
// ResponseHandler (the same tests run against both).
//
// Thread safety: as HttpClient (one per EventLoop, loop thread only).
#pragma once

#include "transport/http_client.h"

namespace servebench::transport {

Result<std::unique_ptr<HttpClient>> make_http1_client(EventLoop& loop, const ClientOptions& options);
Result<std::unique_ptr<HttpClient>> make_http_client(EventLoop& loop, const ClientOptions& options);

}  // namespace servebench::transport
