#include "knobs.h"

#include <cmath>
#include <string>

#include "core/units.h"
#include "length_rules.h"

namespace servebench::mock {
namespace {

using core::trim;

// Header text echoed in a one-line error: control characters become '?'.
std::string printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

Error bad_value(std::string_view key, std::string_view value, std::string_view want) {
  return Error{ErrorCode::kInvalidArgument, "X-Mock-Scenario: bad value '" + printable(value) +
                                                "' for " + printable(key) + " (want " +
                                                std::string(want) + ")"};
}

// A non-negative finite number, at most `max` (keeps ns conversions far from overflow).
Result<double> non_negative(std::string_view key, std::string_view value, double max = 1e9) {
  auto v = core::parse_double(value);
  if (!v || *v < 0 || !std::isfinite(*v) || *v > max)
    return tl::unexpected(bad_value(key, value, "a number in [0, 1e9]"));
  return *v;
}

Result<int64_t> whole(std::string_view key, std::string_view value, int64_t min) {
  auto v = core::parse_double(value);
  if (!v || *v < static_cast<double>(min) || *v != std::floor(*v) ||
      *v > static_cast<double>(kMaxTokensPerRequest)) {
    return tl::unexpected(bad_value(key, value,
                                    "a whole number in [" + std::to_string(min) + ", " +
                                        std::to_string(kMaxTokensPerRequest) + "]"));
  }
  return static_cast<int64_t>(*v);
}

}  // namespace

Result<FaultKind> parse_fault_kind(std::string_view text) {
  if (text == "http500") return FaultKind::kHttp500;
  if (text == "http429") return FaultKind::kHttp429;
  if (text == "reset") return FaultKind::kReset;
  if (text == "stall") return FaultKind::kStall;
  if (text == "malformed") return FaultKind::kMalformed;
  if (text == "error-event" || text == "error_event") return FaultKind::kErrorEvent;
  if (text == "mixed") return FaultKind::kMixed;
  return make_error(ErrorCode::kInvalidArgument,
                    "unknown error kind '" + std::string(text) +
                        "' (use http500, http429, reset, stall, malformed, error-event or mixed)");
}

const char* fault_kind_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::kNone:
      return "none";
    case FaultKind::kHttp500:
      return "http500";
    case FaultKind::kHttp429:
      return "http429";
    case FaultKind::kReset:
      return "reset";
    case FaultKind::kStall:
      return "stall";
    case FaultKind::kMalformed:
      return "malformed";
    case FaultKind::kErrorEvent:
      return "error-event";
    case FaultKind::kMixed:
      return "mixed";
  }
  return "none";
}

Result<RequestKnobs> apply_scenario(const RequestKnobs& base, std::string_view header) {
  RequestKnobs k = base;
  while (!header.empty()) {
    const size_t semi = header.find(';');
    std::string_view item = trim(header.substr(0, semi));
    header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return make_error(ErrorCode::kInvalidArgument,
                        "X-Mock-Scenario: item '" + printable(item) + "' is not key=value");
    }
    const std::string_view key = trim(item.substr(0, eq));
    const std::string_view value = trim(item.substr(eq + 1));
    if (key == "ttft_ms" || key == "itl_ms") {
      auto v = non_negative(key, value);
      if (!v) return tl::unexpected(v.error());
      (key == "ttft_ms" ? k.ttft_ns : k.itl_ns) = core::ms_to_ns(*v);
    } else if (key == "prefill_us_per_token") {
      auto v = non_negative(key, value);
      if (!v) return tl::unexpected(v.error());
      k.prefill_ns_per_token = static_cast<int64_t>(std::llround(*v * 1000.0));
    } else if (key == "jitter_cv") {
      auto v = non_negative(key, value);
      if (!v) return tl::unexpected(v.error());
      k.jitter_cv = *v;
    } else if (key == "error_rate") {
      auto v = non_negative(key, value);
      if (!v || *v > 100) return tl::unexpected(bad_value(key, value, "a percentage 0..100"));
      k.error_rate_pct = *v;
    } else if (key == "tokens_per_chunk") {
      auto v = whole(key, value, 1);
      if (!v) return tl::unexpected(v.error());
      k.tokens_per_chunk = *v;
    } else if (key == "reasoning_tokens") {
      auto v = whole(key, value, 0);
      if (!v) return tl::unexpected(v.error());
      k.reasoning_tokens = *v;
    } else if (key == "output_tokens") {
      auto v = whole(key, value, 0);
      if (!v) return tl::unexpected(v.error());
      k.output_tokens = *v;
    } else if (key == "tool_calls") {
      if (value != "0" && value != "1") return tl::unexpected(bad_value(key, value, "0 or 1"));
      k.tool_calls = value == "1";
    } else if (key == "cached_tokens") {
      auto v = whole(key, value, 0);
      if (!v) return tl::unexpected(v.error());
      k.cached_tokens = *v;
    } else if (key == "early_role") {
      if (value != "0" && value != "1") return tl::unexpected(bad_value(key, value, "0 or 1"));
      k.early_role = value == "1";
    } else if (key == "error_kind") {
      auto v = parse_fault_kind(value);
      if (!v)
        return tl::unexpected(
            bad_value(key, value, "http500|http429|reset|stall|malformed|error-event|mixed"));
      k.error_kind = *v;
    } else {
      return make_error(ErrorCode::kInvalidArgument,
                        "X-Mock-Scenario: unknown key '" + printable(key) +
                            "' (known: ttft_ms, itl_ms, prefill_us_per_token, jitter_cv, "
                            "tokens_per_chunk, reasoning_tokens, error_rate, error_kind, "
                            "early_role, output_tokens, tool_calls, cached_tokens)");
    }
  }
  return k;
}

}  // namespace servebench::mock
