// Base URLs (-u/--url) and request URLs built from them.
//
// Accepted: [http:// | https://][user:pass@]host[:port][/base/path][?query]. No scheme means
// http://. The host is a name, an IPv4 address or a bracketed IPv6 address; the port is decimal,
// 1..65535. A fragment (#...) and any other scheme are refused. Every error is one line naming
// -u/--url and the fix; the echoed URL never shows its user info.
//
// User info (user:pass@) is HTTP Basic authentication: it is removed from the URL and becomes an
// "Authorization: Basic base64(user:pass)" header (percent-escapes decoded first, as RFC 3986
// writes reserved characters in user info). The URL itself is then safe to print and export.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::config {

struct BaseUrl {
  std::string url;       // scheme://host[:port][/base][?query], no user info, no trailing '/'
  std::string user;      // decoded user name ("" = no user info)
  std::string password;  // decoded password
  bool has_user_info = false;
  std::string raw_user_info;  // as typed (percent-escapes kept), to register as a secret

  // "Authorization: Basic ..." for the user info; "" without user info.
  std::string basic_auth_header() const;
};

// Parses and validates one -u/--url value.
Result<BaseUrl> parse_base_url(std::string_view text);

// Normalizes a base URL without user info (see parse_base_url); user info is refused here.
Result<std::string> normalize_url(const std::string& url);

// The request URL for `path` (e.g. "/v1/chat/completions") under `base`: the path goes after the
// base path and before the base's query string ("http://h/x?api-version=1" + "/v1/chat" →
// "http://h/x/v1/chat?api-version=1"). A query in `path` comes first, the base's after '&'.
// AIPerf's joining rule: a base path that already ends with the path is used as it is
// ("http://h/v1/chat/completions" + "/v1/chat/completions"), and a base path ending in /v1 does
// not repeat it ("http://h/proxy/v1" + "/v1/embeddings" → "http://h/proxy/v1/embeddings").
std::string join_url(std::string_view base, std::string_view path);

// `url` with any user info replaced by "<redacted>" (for messages and the command line).
std::string redact_url(std::string_view url);

// RFC 4648 base64 with padding.
std::string base64_encode(std::string_view bytes);

}  // namespace servebench::config
