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

namespace {

// The decimal exponent k of a divisor 10^k among 1, 1e3, 1e6, 1e9; -1 otherwise.
int power_of_ten(double divisor) {
  if (divisor == 1) return 0;
  if (divisor == 1e3) return 3;
  if (divisor == 1e6) return 6;
  if (divisor == 1e9) return 9;
  return -1;
}

// Writes D × 10^e10 (D = `digits`, no trailing zero) as std::to_chars would: fixed or
// exponent notation, whichever is shorter, fixed on a tie.
void append_decimal(std::string* out, std::string_view digits, int e10) {
  const int n = static_cast<int>(digits.size());
  const int x = n - 1 + e10;  // scientific exponent
  const int fixed_len = e10 >= 0 ? n + e10 : x >= 0 ? n + 1 : 1 + n - x;
  const int ax = x < 0 ? -x : x;
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (ax >= 100 ? 3 : 2);
  if (fixed_len <= sci_len) {
    if (e10 >= 0) {
      out->append(digits);
      out->append(static_cast<size_t>(e10), '0');
    } else if (x >= 0) {
      out->append(digits.substr(0, static_cast<size_t>(x + 1)));
      out->push_back('.');
      out->append(digits.substr(static_cast<size_t>(x + 1)));
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(-x - 1), '0');
      out->append(digits);
    }
    return;
  }
  out->push_back(digits[0]);
  if (n > 1) {
    out->push_back('.');
    out->append(digits.substr(1));
  }
  out->push_back('e');
  out->push_back(x < 0 ? '-' : '+');
  if (ax < 10) out->push_back('0');
  char buf[8];
  const auto res = std::to_chars(buf, buf + sizeof(buf), ax);
  out->append(buf, res.ptr);
}

}  // namespace

void append_scaled_number(std::string* out, double base, double divisor) {
  if (base == 0 && divisor > 0) {  // a third of a record's values (no "-0", as append_number)
    out->push_back('0');
    return;
  }
  const int k = power_of_ten(divisor);
  if (k < 0 || !(std::fabs(base) < 1e15) || base != std::trunc(base) || base == 0) {
    append_json_number(out, base / divisor);
    return;
  }
  if (base < 0) out->push_back('-');
  char buf[24];
  const auto res =
      std::to_chars(buf, buf + sizeof(buf), static_cast<int64_t>(std::fabs(base)));
  std::string_view digits(buf, static_cast<size_t>(res.ptr - buf));
  int zeros = 0;
  while (digits.size() > 1 && digits.back() == '0') {
    digits.remove_suffix(1);
    ++zeros;
  }
  append_decimal(out, digits, zeros - k);
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
