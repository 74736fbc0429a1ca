#include "transport/http1_request.h"

#include <netdb.h>
#include <strings.h>

#include <cstring>

namespace servebench::transport {

namespace {

bool parse_http_url(const std::string& url, std::string* host, std::string* port) {
  if (url.compare(0, 7, "http://") != 0) return false;
  const size_t path_start = url.find('/', 7);
  std::string authority = url.substr(7, path_start == std::string::npos ? std::string::npos : path_start - 7);
  if (authority.empty() || authority.find('@') != std::string::npos) return false;
  if (authority[0] == '[') {  // [v6]:port
    size_t close = authority.find(']');
    if (close == std::string::npos) return false;
    *host = authority.substr(1, close - 1);
    *port = close + 1 < authority.size() && authority[close + 1] == ':' ? authority.substr(close + 2) : "80";
  } else {
    size_t colon = authority.rfind(':');
    *host = authority.substr(0, colon);
    *port = colon == std::string::npos ? "80" : authority.substr(colon + 1);
  }
  return !host->empty() && !port->empty();
}

std::string_view url_path(std::string_view url) {
  const size_t path_start = url.find('/', 7);
  return path_start == std::string_view::npos ? std::string_view("/") : url.substr(path_start);
}

}  // namespace

Result<Http1Endpoint> resolve_http_url(const std::string& url) {
  std::string host, port;
  if (!parse_http_url(url, &host, &port)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "URL '" + url + "': the native HTTP/1.1 client takes http://host[:port]/path");
  }
  Http1Endpoint ep;
  const size_t path_start = url.find('/', 7);
  ep.host_header = url.substr(7, (path_start == std::string::npos ? url.size() : path_start) - 7);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_family = AF_INET;
  addrinfo* res = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || !res) {
    hints.ai_family = AF_UNSPEC;
    if (getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || !res) {
      return make_error(ErrorCode::kNetwork, "cannot resolve host '" + host + "' of URL '" + url + "'");
    }
  }
  std::memcpy(&ep.addr, res->ai_addr, res->ai_addrlen);
  ep.addr_len = res->ai_addrlen;
  freeaddrinfo(res);
  return ep;
}

void build_http1_request(const HttpRequest& r, std::string_view host_header, std::string* out) {
  out->reserve(out->size() + r.body.size() + 256);
  out->append(r.method).append(" ").append(url_path(r.url)).append(" HTTP/1.1\r\nHost: ");
  out->append(host_header).append("\r\n");
  bool has_content_type = false;
  for (const std::string& h : r.headers) {
    if (h.size() >= 13 && strncasecmp(h.c_str(), "content-type:", 13) == 0) has_content_type = true;
    out->append(h).append("\r\n");
  }
  if (!has_content_type && !r.body.empty()) out->append("Content-Type: application/json\r\n");
  if (!r.body.empty() || r.method == "POST" || r.method == "PUT") {
    out->append("Content-Length: ").append(std::to_string(r.body.size())).append("\r\n");
  }
  out->append("\r\n").append(r.body);
}

}  // namespace servebench::transport
