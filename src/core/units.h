// Unit helpers: parse and format durations ("10s", "250ms", "1.5m", "100us", "2h"), counts
// ("10k", "1.5M"), and convert between ns and display units. Bare numbers take the caller's
// default unit. All parsing is strict: trailing junk, negative values and overflow are errors.
// Also the shared text helper those parsers need (trim).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::core {

inline constexpr int64_t kNsPerUs = 1'000;
inline constexpr int64_t kNsPerMs = 1'000'000;
inline constexpr int64_t kNsPerSec = 1'000'000'000;

enum class DurationUnit { kNanoseconds, kMicroseconds, kMilliseconds, kSeconds };

// "250ms" → 250'000'000. A bare number ("2.5") is read in `bare_unit`.
// Suffixes: ns, us, µs, ms, s, m (minutes), h.
Result<int64_t> parse_duration_ns(std::string_view text,
                                  DurationUnit bare_unit = DurationUnit::kSeconds);

// "10k" → 10'000, "1.5M" → 1'500'000, "2G" → 2e9, "100" → 100. Result must be integral.
Result<int64_t> parse_count(std::string_view text);

// Parses a finite double with nothing after it.
Result<double> parse_double(std::string_view text);

// Human formatting for logs and the console: "1.23 ms", "45.6 µs", "2.00 s".
std::string format_duration(int64_t ns);

// The one set of unit conversions (no module keeps its own copy). ns → display units are exact
// divisions; display units → ns round half away from zero.
inline double ns_to_us(int64_t ns) { return static_cast<double>(ns) / 1e3; }
inline double ns_to_ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }
inline double ns_to_sec(int64_t ns) { return static_cast<double>(ns) / 1e9; }
inline int64_t us_to_ns(double us) { return static_cast<int64_t>(us * 1e3 + (us >= 0 ? 0.5 : -0.5)); }
inline int64_t ms_to_ns(double ms) { return static_cast<int64_t>(ms * 1e6 + (ms >= 0 ? 0.5 : -0.5)); }
inline int64_t sec_to_ns(double s) { return static_cast<int64_t>(s * 1e9 + (s >= 0 ? 0.5 : -0.5)); }
// For fields where a negative value means "absent" (dataset delays and timestamps): any
// negative input gives -1, anything else ms_to_ns.
inline int64_t ms_to_ns_or_absent(double ms) { return ms < 0 ? -1 : ms_to_ns(ms); }

// `text` without leading and trailing whitespace: the C locale's set (space, \t, \n, \v, \f,
// \r), independent of setlocale(), so parsing never depends on the user's locale.
std::string_view trim(std::string_view text);

}  // namespace servebench::core
