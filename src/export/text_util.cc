#include "export/text_util.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace servebench::exporter {

std::string format_number(double v) {
  std::string s;
  append_number(&s, v);
  return s;
}

void append_number(std::string* out, double v) {
  if (std::isnan(v)) {
    out->append("nan");
    return;
  }
  if (std::isinf(v)) {
    out->append(v > 0 ? "inf" : "-inf");
    return;
  }
  if (v == 0) v = 0;  // no "-0"
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

void append_json_number(std::string* out, double v) {
  if (!std::isfinite(v)) {
    out->append("null");
    return;
  }
  append_number(out, v);
}


namespace {

// ASCII case folding (keys are ASCII; no locale lookups: bodies of megabytes pass through here).
inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals_at(std::string_view text, size_t pos, std::string_view word) {
  if (pos + word.size() > text.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (ascii_lower(text[pos + i]) != ascii_lower(word[i])) return false;
  return true;
}

bool is_value_char(char c) {
  return !(c == ' ' || c == ')' || c == '"' || c == '\'' || c == ',' || c == '}' || c == ']' || c == '\n' ||
           c == '\r' || c == '\t' || c == ';' || c == '&');
}

}  // namespace

std::string scrub_secrets(std::string_view text) {
  // Keys after which the next value is a secret. The separator run between key and value may
  // hold quotes, ':', '=', spaces and (for headers) an auth scheme such as "Bearer".
  static constexpr std::string_view kKeys[] = {
      "authorization", "x-api-key", "api-key", "api_key", "apikey", "bearer ", "access_token",
      "x-goog-api-key",
  };
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    bool matched = false;
    const char first = ascii_lower(text[i]);
    for (std::string_view key : kKeys) {
      if (key.front() != first) continue;  // cheap first-letter test before the full compare
      if (!iequals_at(text, i, key)) continue;
      // Word boundary before the key (so "my_api_key_name" inside prose still redacts, but
      // "apikeys" in the middle of an identifier is rare enough to accept).
      size_t j = i + key.size();
      size_t sep_start = j;
      while (j < text.size() && (text[j] == '"' || text[j] == '\'' || text[j] == ':' ||
                                 text[j] == '=' || text[j] == ' ' || text[j] == '\\')) {
        ++j;
      }
      // "Authorization: Bearer xyz": skip the scheme word too.
      if (iequals_at(text, j, "bearer ")) j += 7;
      if (iequals_at(text, j, "basic ")) j += 6;
      if (j == sep_start && key.back() != ' ') continue;  // key without a separator: not a key
      size_t v = j;
      while (v < text.size() && is_value_char(text[v])) ++v;
      if (v == j) continue;
      if (text.substr(j, v - j) == "<redacted>") continue;
      out.append(text.substr(i, j - i));
      out.append("<redacted>");
      i = v;
      matched = true;
      break;
    }
    if (matched) continue;
    // OpenAI-style keys: sk-XXXXXXXX (at least 16 key characters).
    if (text[i] == 's' && i + 3 < text.size() && text[i + 1] == 'k' && text[i + 2] == '-' &&
        (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      size_t v = i + 3;
      while (v < text.size() && (std::isalnum(static_cast<unsigned char>(text[v])) ||
                                 text[v] == '-' || text[v] == '_')) {
        ++v;
      }
      if (v - i - 3 >= 16) {
        out.append("<redacted>");
        i = v;
        continue;
      }
    }
    out.push_back(text[i]);
    ++i;
  }
  return out;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace servebench::exporter
