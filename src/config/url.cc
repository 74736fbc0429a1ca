#include "config/url.h"

#include <fmt/format.h>

#include <cctype>

namespace servebench::config {
namespace {

tl::unexpected<Error> bad_url(std::string_view url, std::string_view problem) {
  return make_error(ErrorCode::kInvalidArgument,
                    fmt::format("-u/--url '{}' {}", redact_url(url), problem));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

bool has_space_or_control(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return true;
  return false;
}

// Splits "host[:port]" (or "[v6][:port]") and checks both parts; appends the canonical form.
Status check_host_port(std::string_view url, std::string_view hostport, std::string* out) {
  std::string_view host = hostport, port;
  bool has_port = false;
  if (!hostport.empty() && hostport.front() == '[') {
    const size_t close = hostport.find(']');
    if (close == std::string_view::npos) return bad_url(url, "has an unclosed '[' in its host");
    host = hostport.substr(0, close + 1);
    std::string_view rest = hostport.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return bad_url(url, "has text after ']'; expected [addr]:port");
      has_port = true;
      port = rest.substr(1);
    }
    if (host.size() <= 2) return bad_url(url, "has no host; expected e.g. http://localhost:8000");
  } else {
    const size_t colon = hostport.find(':');
    if (colon != std::string_view::npos) {
      if (hostport.find(':', colon + 1) != std::string_view::npos)
        return bad_url(url,
                       "has several ':' in its host; write IPv6 addresses in brackets, e.g. "
                       "http://[::1]:8000");
      host = hostport.substr(0, colon);
      port = hostport.substr(colon + 1);
      has_port = true;
    }
    if (host.empty()) return bad_url(url, "has no host; expected e.g. http://localhost:8000");
    // Letters, digits, '-', '.', '_', and at least one letter or digit ("." is no host).
    bool alnum = false;
    for (char c : host) {
      if (!host_char(c))
        return bad_url(url, "has an invalid host; expected a name or an IP address");
      alnum = alnum || std::isalnum(static_cast<unsigned char>(c));
    }
    if (!alnum) return bad_url(url, "has an invalid host; expected a name or an IP address");
  }
  out->append(host);
  if (!has_port) return {};
  bool digits = !port.empty() && port.size() <= 5;
  for (char c : port) digits = digits && c >= '0' && c <= '9';
  const long value = digits ? std::stol(std::string(port)) : 0;
  if (!digits || value < 1 || value > 65535)
    return bad_url(url, fmt::format("has an invalid port '{}'; use a number from 1 to 65535, e.g. "
                                    "http://localhost:8000",
                                    port));
  out->append(":");
  out->append(std::to_string(value));
  return {};
}

}  // namespace

std::string BaseUrl::basic_auth_header() const {
  if (!has_user_info) return "";
  return "Authorization: Basic " + base64_encode(user + ":" + password);
}

Result<BaseUrl> parse_base_url(std::string_view text) {
  if (text.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "-u/--url is empty; expected e.g. http://localhost:8000");
  BaseUrl out;
  std::string_view rest = text;
  std::string scheme = "http";
  if (const size_t sep = text.find("://"); sep != std::string_view::npos) {
    scheme.clear();
    for (char c : text.substr(0, sep))
      scheme.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (scheme != "http" && scheme != "https")
      return bad_url(text, "has an unsupported scheme; use http:// or https://");
    rest = text.substr(sep + 3);
  }
  if (has_space_or_control(rest))
    return bad_url(text, "contains a space or control character; percent-encode it");
  const size_t auth_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, auth_end);
  std::string_view tail =
      auth_end == std::string_view::npos ? std::string_view() : rest.substr(auth_end);
  if (tail.find('#') != std::string_view::npos)
    return bad_url(text, "has a fragment (#...); drop it");
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
    out.has_user_info = true;
    out.raw_user_info = std::string(authority.substr(0, at));
    const size_t colon = out.raw_user_info.find(':');
    out.user = percent_decode(std::string_view(out.raw_user_info).substr(0, colon));
    if (colon != std::string::npos)
      out.password = percent_decode(std::string_view(out.raw_user_info).substr(colon + 1));
    if (out.user.empty())
      return bad_url(text, "has user info without a user name; write http://user:password@host");
    authority = authority.substr(at + 1);
  }
  out.url = scheme + "://";
  if (auto st = check_host_port(text, authority, &out.url); !st) return tl::unexpected(st.error());
  std::string_view path = tail.substr(0, tail.find('?'));
  std::string_view query = tail.substr(path.size());
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  out.url.append(path);
  if (query.size() > 1) out.url.append(query);
  return out;
}

Result<std::string> normalize_url(const std::string& url) {
  auto parsed = parse_base_url(url);
  if (!parsed) return tl::unexpected(parsed.error());
  if (parsed->has_user_info)
    return make_error(
        ErrorCode::kInvalidArgument,
        fmt::format("-u/--url '{}' has user info; it is not accepted here", redact_url(url)));
  return parsed->url;
}

std::string join_url(std::string_view base, std::string_view path) {
  const size_t bq = base.find('?');
  const std::string_view base_path = base.substr(0, bq);
  const std::string_view base_query =
      bq == std::string_view::npos ? std::string_view() : base.substr(bq + 1);
  const size_t pq = path.find('?');
  const std::string_view path_part = path.substr(0, pq);
  const std::string_view path_query =
      pq == std::string_view::npos ? std::string_view() : path.substr(pq + 1);
  std::string out(base_path);
  while (!out.empty() && out.back() == '/') out.pop_back();
  std::string_view rel = path_part;
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  const auto ends_with = [&out](std::string_view tail) {
    return out.size() >= tail.size() && out.compare(out.size() - tail.size(), tail.size(), tail) == 0;
  };
  // AIPerf's joining rule: a base that already ends with the path is the whole URL, and a base
  // ending in /v1 takes a v1/ path without doubling it.
  const bool already = !rel.empty() && out.size() > rel.size() && ends_with(rel) &&
                       out[out.size() - rel.size() - 1] == '/';
  if (!already && !rel.empty()) {
    if (ends_with("/v1") && rel.substr(0, 3) == "v1/") rel.remove_prefix(3);
    out.push_back('/');
    out.append(rel);
  }
  if (!path_query.empty() || !base_query.empty()) out.push_back('?');
  out.append(path_query);
  if (!path_query.empty() && !base_query.empty()) out.push_back('&');
  out.append(base_query);
  return out;
}

std::string redact_url(std::string_view url) {
  const size_t sep = url.find("://");
  const size_t start = sep == std::string_view::npos ? 0 : sep + 3;
  const size_t auth_end = url.find_first_of("/?#", start);
  const size_t at = url.substr(0, auth_end).rfind('@');
  if (at == std::string_view::npos || at < start) return std::string(url);
  return std::string(url.substr(0, start)) + "<redacted>" + std::string(url.substr(at));
}

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int s : {18, 12, 6, 0}) out.push_back(kAlphabet[(n >> s) & 63]);
  }
  if (i + 1 == bytes.size()) {
    const uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    out += {kAlphabet[(n >> 18) & 63], kAlphabet[(n >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const uint32_t n =
        (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += {kAlphabet[(n >> 18) & 63], kAlphabet[(n >> 12) & 63], kAlphabet[(n >> 6) & 63], '='};
  }
  return out;
}

}  // namespace servebench::config
