#include "core/env.h"
#include "transport/http1_client.h"

namespace servebench::transport {

namespace {

constexpr HttpClient::TransferId kCurlBit = HttpClient::TransferId{1} << 63;

bool proxy_configured() {
  using core::EnvVar;
  for (EnvVar v : {EnvVar::kHttpProxyLower, EnvVar::kHttpProxyUpper, EnvVar::kAllProxyLower,
                   EnvVar::kAllProxyUpper}) {
    const auto& s = core::env().get(v);
    if (s && !s->empty()) return true;
  }
  return false;
}

// Routes each request to the native HTTP/1.1 client or to libcurl (created on first use).
// Transfer ids from libcurl carry the top bit so cancel() finds the right client.
class RoutingClient final : public HttpClient {
 public:
  RoutingClient(EventLoop& loop, const ClientOptions& options, bool native_allowed)
      : loop_(loop), options_(options), native_allowed_(native_allowed) {}

  Result<TransferId> start(const HttpRequest& request, ResponseHandler* handler) override {
    if (native_allowed_ && request.url.compare(0, 7, "http://") == 0) {
      if (!native_) {
        auto c = make_http1_client(loop_, options_);
        if (!c) return tl::unexpected(c.error());
        native_ = std::move(*c);
      }
      return native_->start(request, handler);
    }
    if (!curl_) {
      auto c = make_curl_client(loop_, options_);
      if (!c) return tl::unexpected(c.error());
      curl_ = std::move(*c);
    }
    auto id = curl_->start(request, handler);
    if (!id) return id;
    return *id | kCurlBit;
  }

  void cancel(TransferId id) override {
    if (id & kCurlBit) {
      if (curl_) curl_->cancel(id & ~kCurlBit);
    } else if (native_) {
      native_->cancel(id);
    }
  }

  size_t in_flight() const override {
    return (native_ ? native_->in_flight() : 0) + (curl_ ? curl_->in_flight() : 0);
  }

  void release_group(uint64_t group) override {
    if (native_) native_->release_group(group);
    if (curl_) curl_->release_group(group);
  }

 private:
  EventLoop& loop_;
  ClientOptions options_;
  bool native_allowed_;
  std::unique_ptr<HttpClient> native_;
  std::unique_ptr<HttpClient> curl_;
};

}  // namespace

Result<std::unique_ptr<HttpClient>> make_http_client(EventLoop& loop, const ClientOptions& options) {
  const bool native = options.native_http1 && options.http_version == 1 && !proxy_configured();
  return std::unique_ptr<HttpClient>(std::make_unique<RoutingClient>(loop, options, native));
}

}  // namespace servebench::transport
