#include "export/text_util.h"

#include "core/secrets.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

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

char* copy(char* p, const char* s, size_t n) {
  std::memcpy(p, s, n);
  return p + n;
}

// Writes D × 10^e10 (D = the n `digits`, no trailing zero) as std::to_chars would: fixed or
// exponent notation, whichever is shorter, fixed on a tie. REQUIRES: n <= 15, `digits` readable
// for kDigitBytes and `p` writable for kMaxNumberChars: the fixed forms copy whole 16-byte blocks
// (constant sizes, so no call to memcpy) and then keep only what is theirs.
constexpr size_t kDigitBytes = 40;

char* write_decimal(char* p, const char* digits, int n, int e10) {
  const int x = n - 1 + e10;  // scientific exponent
  const int fixed_len = e10 >= 0 ? n + e10 : x >= 0 ? n + 1 : 1 + n - x;
  const int ax = x < 0 ? -x : x;
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (ax >= 100 ? 3 : 2);
  if (fixed_len <= sci_len) {  // then e10 <= 5 and -x <= 4: the blocks below fit
    if (e10 >= 0) {  // digits, then e10 zeros
      std::memcpy(p, digits, 16);
      std::memset(p + n, '0', 8);
      return p + n + e10;
    }
    if (x >= 0) {  // digits with a point after the first x + 1
      std::memcpy(p, digits, 16);
      p[x + 1] = '.';
      std::memcpy(p + x + 2, digits + x + 1, 16);
      return p + n + 1;
    }
    std::memcpy(p, "0.000000", 8);  // "0." and -x - 1 zeros, then the digits
    p += 1 - x;
    std::memcpy(p, digits, 16);
    return p + n;
  }
  *p++ = digits[0];
  if (n > 1) {
    *p++ = '.';
    p = copy(p, digits + 1, static_cast<size_t>(n - 1));
  }
  *p++ = 'e';
  *p++ = x < 0 ? '-' : '+';
  if (ax < 10) *p++ = '0';
  return std::to_chars(p, p + 8, ax).ptr;
}

}  // namespace

char* write_json_number(char* p, double v) {
  if (!std::isfinite(v)) return copy(p, "null", 4);
  if (v == 0) v = 0;  // no "-0"
  return std::to_chars(p, p + kMaxNumberChars, v).ptr;
}

namespace {

// The 8 decimal digits of n < 10^8 (leading zeros included) as ASCII bytes in a 64-bit word,
// most significant at the lowest address. Lanes of one word are worked on together: two 4-digit
// halves in 32-bit lanes, split into 2-digit quarters (16-bit lanes), split into digits (bytes).
// A quotient by 100 or 10 is a multiplication and a shift (exact below 10^4 and 10^2), and no
// lane's product reaches the next lane's bits.
uint64_t eight_digits(uint32_t n) {
  uint64_t x = (n / 10000) | (static_cast<uint64_t>(n % 10000) << 32);
  uint64_t q = ((x * 10486) >> 20) & 0x0000007F0000007FULL;  // v / 100 per 32-bit lane
  x = q | ((x - q * 100) << 16);
  q = ((x * 103) >> 10) & 0x000F000F000F000FULL;  // v / 10 per 16-bit lane
  x = q | ((x - q * 10) << 8);
  return x | 0x3030303030303030ULL;
}

// ns → ms with a fractional part and a value of at least 0.001 (most of a record line's values):
// the whole milliseconds, a point and the six digits of the rest less its trailing zeros. Fixed
// notation is then always the shorter (it is at least as short at 0.001 and gains from there), so
// this is the text the general path below writes. REQUIRES: 1000 <= ns < 1e15, ns % 1e6 != 0.
char* write_ns_as_ms(char* p, int64_t ns) {
  p = std::to_chars(p, p + 20, ns / 1'000'000).ptr;
  *p++ = '.';
  // The six digits of the rest (eight_digits' first two are its leading zeros), written whole;
  // the cursor then stops after the last one that is not '0' (there is one: ns % 1e6 != 0).
  const uint64_t six = eight_digits(static_cast<uint32_t>(ns % 1'000'000)) >> 16;
  std::memcpy(p, &six, 8);
  const uint64_t nonzero = six ^ 0x0000303030303030ULL;  // bytes of digit 0 become 0
  return p + (63 - std::countl_zero(nonzero)) / 8 + 1;
}

// digits × 10^e10 (digits > 0) as std::to_chars writes that double, when its significant digits
// are at most 15 (then no shorter decimal names the same double: the text is its exact digits,
// fixed or exponent form, whichever is shorter); nullptr otherwise.
char* write_exact_decimal(char* p, uint64_t digits, int e10) {
  char buf[kDigitBytes] = {};
  int n = static_cast<int>(std::to_chars(buf, buf + 24, digits).ptr - buf);
  while (n > 1 && buf[n - 1] == '0') {
    --n;
    ++e10;
  }
  return n <= 15 ? write_decimal(p, buf, n, e10) : nullptr;
}

}  // namespace

char* write_int(char* p, int64_t v) {
  constexpr int64_t k16 = 10'000'000'000'000'000;
  if (v < k16) return std::to_chars(p, p + 20, v).ptr;
  p = std::to_chars(p, p + 4, v / k16).ptr;  // 1 to 3 digits (v < 2^63)
  const auto rest = static_cast<uint64_t>(v % k16);
  const uint64_t hi = eight_digits(static_cast<uint32_t>(rest / 100'000'000));
  const uint64_t lo = eight_digits(static_cast<uint32_t>(rest % 100'000'000));
  std::memcpy(p, &hi, 8);
  std::memcpy(p + 8, &lo, 8);
  return p + 16;
}

char* write_scaled_number(char* p, double base, double divisor) {
  if (base == 0 && divisor > 0) {  // a third of a record's values (no "-0", as append_number)
    *p = '0';
    return p + 1;
  }
  if (divisor == 1e6 && base >= 1000 && base < 1e15 && base == std::trunc(base)) {
    const auto ns = static_cast<int64_t>(base);
    if (ns % 1'000'000 != 0) return write_ns_as_ms(p, ns);
  }
  if (divisor == 1024 && base >= 1 && base < 1e12 && base == std::trunc(base)) {
    // Bytes → KB: base / 2^10 = base × 5^10 / 10^10 exactly, the digits of an integer.
    const uint64_t digits = static_cast<uint64_t>(base) * 9'765'625;
    if (char* end = write_exact_decimal(p, digits, -10)) return end;
  }
  if (divisor == 1 && base >= 1 && base < 10000 && base == std::trunc(base)) {
    // A small whole count: fixed notation is never longer than the exponent form.
    return std::to_chars(p, p + 8, static_cast<int64_t>(base)).ptr;
  }
  const int k = power_of_ten(divisor);
  if (k < 0 || !(std::fabs(base) < 1e15) || base != std::trunc(base) || base == 0) {
    return write_json_number(p, base / divisor);
  }
  if (base < 0) *p++ = '-';
  // |base| < 1e15 has at most 15 digits: never nullptr.
  return write_exact_decimal(p, static_cast<uint64_t>(std::fabs(base)), -k);
}

void append_scaled_number(std::string* out, double base, double divisor) {
  char buf[kMaxNumberChars];
  out->append(buf, write_scaled_number(buf, base, divisor));
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
