#include "export/text_util.h"

#include "core/secrets.h"

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


std::string scrub_secrets(std::string_view text) { return core::secrets::scrub(text); }

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
