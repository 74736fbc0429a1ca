// Builders for the common kinds of FlagSpec (config/flag_table.h): counts, numbers, durations,
// strings, switches and named choices bound to one BenchmarkConfig field. Each converter's error
// is one line naming the flag and the expected form. A value flag given an empty text is treated
// as absent, as AIPerf's parser does for optional values.
//
// Internal to the config module. Thread safety: pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "config/flag_table.h"

namespace servebench::config::flags {

using C = BenchmarkConfig;

tl::unexpected<Error> usage(std::string message);
Result<double> to_double(std::string_view flag, const std::string& v, std::string_view expect);
Result<int64_t> to_count(std::string_view flag, const std::string& v, int64_t min);
Result<int64_t> to_seconds(std::string_view flag, const std::string& v, bool allow_inf);
double ns_to_s(int64_t ns);

inline JsonValue json_of(bool v) { return v; }
inline JsonValue json_of(int64_t v) { return v; }
inline JsonValue json_of(uint64_t v) { return static_cast<int64_t>(v); }
inline JsonValue json_of(double v) { return v; }
inline JsonValue json_of(const std::string& v) { return v; }
inline JsonValue json_of(const std::vector<std::string>& v) { return v; }
template <class T>
JsonValue json_of(const std::optional<T>& v) {
  return v ? json_of(*v) : JsonValue(nullptr);
}
// "" → null (optional strings such as --input-file).
inline JsonValue string_or_null(const std::string& v) {
  return v.empty() ? JsonValue(nullptr) : JsonValue(v);
}

template <class T>
struct Unwrap {
  using type = T;
};
template <class T>
struct Unwrap<std::optional<T>> {
  using type = T;
};

template <class T>
std::function<JsonValue(const C&)> field_json(T C::*f) {
  return [f](const C& c) { return json_of(c.*f); };
}

FlagSpec base(std::string names, std::string help, std::string key);

// Marks a value flag as sweepable: a comma list of its values becomes a sweep whose axis is
// called `name` ("concurrency") in folder names and the sweep table.
inline FlagSpec sweepable(std::string name, FlagSpec s) {
  s.sweepable = true;
  s.sweep_name = std::move(name);
  return s;
}

// Integer >= min ("{flag} '{v}' is invalid; expected an integer >= {min}").
template <class T>
FlagSpec count_flag(std::string names, std::string flag, std::string help, T C::*f, int64_t min,
                    std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_count(flag, in.text, min);
    if (!v) return tl::unexpected(v.error());
    c->*f = static_cast<typename Unwrap<T>::type>(*v);
    return {};
  };
  s.to_json = field_json(f);
  return s;
}

enum class Bound { kAny, kPositive, kNonNegative };

// A number; `expect` completes "is not a number; expected ...".
template <class T>
FlagSpec double_flag(std::string names, std::string flag, std::string help, T C::*f,
                     std::string expect, Bound bound, std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_double(flag, in.text, expect);
    if (!v) return tl::unexpected(v.error());
    if (bound == Bound::kPositive && !(*v > 0))
      return usage(flag + " '" + in.text + "' must be > 0");
    if (bound == Bound::kNonNegative && !(*v >= 0))
      return usage(flag + " '" + in.text + "' must be >= 0");
    c->*f = *v;
    return {};
  };
  s.to_json = field_json(f);
  return s;
}

// A duration in seconds ("30", "2.5", "500ms"; "inf" when allowed), exported in seconds.
template <class T>
FlagSpec seconds_flag(std::string names, std::string flag, std::string help, T C::*f,
                      bool allow_inf, std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_seconds(flag, in.text, allow_inf);
    if (!v) return tl::unexpected(v.error());
    c->*f = *v;
    return {};
  };
  s.to_json = [f](const C& c) -> JsonValue {
    const auto& v = c.*f;
    if constexpr (std::is_same_v<std::decay_t<decltype(v)>, int64_t>) {
      return ns_to_s(v);
    } else {
      return v ? JsonValue(ns_to_s(*v)) : JsonValue(nullptr);
    }
  };
  return s;
}

// A string stored as typed (even empty); exported as is, or null when empty and `null_if_empty`.
FlagSpec string_flag(std::string names, std::string help, std::string C::*f, bool null_if_empty,
                     std::string key);

// A boolean switch.
FlagSpec switch_flag(std::string names, std::string help, bool C::*f, std::string key);

// One of named values; `expected` completes "is invalid; expected ..." (e.g. "1.1 or 2").
// Exported as the first name of the field's current value (null when no name has it). With
// `empty_is_absent`, an empty text leaves the default (else it is an invalid choice).
template <class E>
FlagSpec choice_flag(std::string names, std::string flag, std::string help, E C::*f,
                     std::vector<std::pair<std::string, E>> choices, std::string expected,
                     bool empty_is_absent, std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (empty_is_absent && in.text.empty()) return {};
    for (const auto& [name, value] : choices) {
      if (in.text != name) continue;
      c->*f = value;
      return {};
    }
    return usage(flag + " '" + in.text + "' is invalid; expected " + expected);
  };
  s.to_json = [f, choices](const C& c) -> JsonValue {
    for (const auto& [name, value] : choices)
      if (c.*f == value) return name;
    return nullptr;
  };
  return s;
}

}  // namespace servebench::config::flags
