#include "config/flag_kinds.h"

#include <fmt/format.h>

#include "core/units.h"

namespace servebench::config::flags {

tl::unexpected<Error> usage(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

Result<double> to_double(std::string_view flag, const std::string& v, std::string_view expect) {
  auto d = core::parse_double(v);
  if (!d) return usage(fmt::format("{} '{}' is not a number; expected {}", flag, v, expect));
  return *d;
}

Result<int64_t> to_count(std::string_view flag, const std::string& v, int64_t min) {
  auto c = core::parse_count(v);
  if (!c || *c < min)
    return usage(fmt::format("{} '{}' is invalid; expected an integer >= {}", flag, v, min));
  return *c;
}

Result<int64_t> to_seconds(std::string_view flag, const std::string& v, bool allow_inf) {
  if (allow_inf && (v == "inf" || v == "infinity" || v == "Infinity")) return kInfiniteNs;
  auto ns = core::parse_duration_ns(v, core::DurationUnit::kSeconds);
  if (!ns)
    return usage(
        fmt::format("{} '{}' is not a duration; expected seconds such as 30, 2.5 or 500ms{}", flag,
                    v, allow_inf ? " (or inf)" : ""));
  return *ns;
}

double ns_to_s(int64_t ns) { return ns == kInfiniteNs ? INFINITY : static_cast<double>(ns) / 1e9; }

FlagSpec base(std::string names, std::string help, std::string key) {
  FlagSpec s;
  s.names = std::move(names);
  s.help = std::move(help);
  s.json_key = std::move(key);
  return s;
}

FlagSpec string_flag(std::string names, std::string help, std::string C::*f, bool null_if_empty,
                     std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.apply = [f](const FlagInput& in, C* c) -> Status {
    c->*f = in.text;
    return {};
  };
  s.to_json = [f, null_if_empty](const C& c) {
    return null_if_empty ? string_or_null(c.*f) : JsonValue(c.*f);
  };
  return s;
}

FlagSpec switch_flag(std::string names, std::string help, bool C::*f, std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.arity = FlagArity::kSwitch;
  s.apply = [f](const FlagInput& in, C* c) -> Status {
    c->*f = in.on;
    return {};
  };
  s.to_json = field_json(f);
  return s;
}

}  // namespace servebench::config::flags
