#include "core/units.h"

#include <charconv>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace servebench::core {
namespace {

// Splits "12.5ms" into the number "12.5" and the suffix "ms".
bool split_number(std::string_view text, double* value, std::string_view* suffix) {
  std::string s(text);
  if (s.empty()) return false;
  const char* begin = s.c_str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(v)) return false;
  // Reject hex floats, "inf", "nan" and leading whitespace that strtod accepts.
  if (!(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.' || s[0] == '-' || s[0] == '+'))
    return false;
  if (s.find_first_of("xXpP") != std::string::npos && s.find_first_of("xX") < static_cast<size_t>(end - begin))
    return false;
  *value = v;
  *suffix = text.substr(static_cast<size_t>(end - begin));
  return true;
}

bool is_c_space(char c) { return c == ' ' || static_cast<unsigned char>(c - '\t') <= 4; }

}  // namespace

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_c_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_c_space(text.back())) text.remove_suffix(1);
  return text;
}

Result<double> parse_double(std::string_view text) {
  double v = 0;
  std::string_view rest;
  if (!split_number(text, &v, &rest) || !rest.empty())
    return make_error(ErrorCode::kInvalidArgument, fmt::format("'{}' is not a number", text));
  return v;
}

Result<int64_t> parse_duration_ns(std::string_view text, DurationUnit bare_unit) {
  double v = 0;
  std::string_view suffix;
  if (!split_number(text, &v, &suffix))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("'{}' is not a duration (examples: 10s, 250ms, 1.5m)", text));
  double scale = 0;
  if (suffix.empty()) {
    switch (bare_unit) {
      case DurationUnit::kNanoseconds: scale = 1; break;
      case DurationUnit::kMicroseconds: scale = 1e3; break;
      case DurationUnit::kMilliseconds: scale = 1e6; break;
      case DurationUnit::kSeconds: scale = 1e9; break;
    }
  } else if (suffix == "ns") {
    scale = 1;
  } else if (suffix == "us" || suffix == "\xC2\xB5s") {
    scale = 1e3;
  } else if (suffix == "ms") {
    scale = 1e6;
  } else if (suffix == "s") {
    scale = 1e9;
  } else if (suffix == "m" || suffix == "min") {
    scale = 60e9;
  } else if (suffix == "h") {
    scale = 3600e9;
  } else {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("'{}' has an unknown duration unit '{}' (use ns, us, ms, s, m, h)",
                                  text, suffix));
  }
  if (v < 0)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("duration '{}' is negative", text));
  const double ns = v * scale;
  if (ns > 9.2e18)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("duration '{}' is too large", text));
  return static_cast<int64_t>(std::llround(ns));
}

Result<int64_t> parse_count(std::string_view text) {
  // A plain integer is read exactly (a seed above 2^53 would lose digits through a double).
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos) {
    int64_t exact = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), exact);
    if (ec != std::errc() || end != text.data() + text.size())
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("count '{}' is too large (at most 9223372036854775807)", text));
    return exact;
  }
  double v = 0;
  std::string_view suffix;
  if (!split_number(text, &v, &suffix))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("'{}' is not a count (examples: 100, 10k, 1.5M)", text));
  double scale = 1;
  if (suffix.empty()) {
    scale = 1;
  } else if (suffix == "k" || suffix == "K") {
    scale = 1e3;
  } else if (suffix == "M" || suffix == "m") {
    scale = 1e6;
  } else if (suffix == "G" || suffix == "g" || suffix == "B") {
    scale = 1e9;
  } else {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("'{}' has an unknown count suffix '{}' (use k, M, G)", text, suffix));
  }
  if (v < 0)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("count '{}' is negative", text));
  const double n = v * scale;
  if (n > 9.2e18 || n != std::floor(n))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("count '{}' is not a whole number in range", text));
  return static_cast<int64_t>(n);
}

std::string format_duration(int64_t ns) {
  const double a = std::fabs(static_cast<double>(ns));
  if (a < 1e3) return fmt::format("{} ns", ns);
  if (a < 1e6) return fmt::format("{:.1f} \xC2\xB5s", static_cast<double>(ns) / 1e3);
  if (a < 1e9) return fmt::format("{:.2f} ms", static_cast<double>(ns) / 1e6);
  return fmt::format("{:.2f} s", static_cast<double>(ns) / 1e9);
}

}  // namespace servebench::core
