// Small text helpers shared by the exporters: shortest round-trip number formatting, JSON
// string escaping, and the secret scrubber every exporter applies to what it echoes.
//
// Numbers: every double is written with std::to_chars' shortest representation that reads back
// to the same double (never rounded for display). Non-finite values have no JSON literal: the
// JSON writers emit null for them (docs/metrics.md, "Infinity in adj_*").
//
// Thread safety: pure functions.
#pragma once

#include "core/json_text.h"

#include <string>
#include <string_view>

namespace servebench::exporter {

// Shortest round-trip text of `v` ("0.1", "255.886568", "1e-07", "550"). For non-finite values
// returns "inf", "-inf" or "nan"; JSON writers must not call it for those (use append_json_number).
std::string format_number(double v);
void append_number(std::string* out, double v);

// JSON value for a double: the shortest round-trip text, or null when not finite.
void append_json_number(std::string* out, double v);

// append_json_number(out, base / divisor), byte for byte, without the general shortest-digits
// search when it is not needed: `base` an integer below 1e15 in magnitude and `divisor` 1, 1e3,
// 1e6 or 1e9 (a duration in ns shown in ms). Such a quotient, correctly rounded, has at most 15
// significant digits, so its shortest round-trip text is its exact decimal digits; only the
// choice between fixed and exponent notation (the shorter, fixed on a tie, as std::to_chars)
// remains. Bytes shown in KB (`divisor` 1024) likewise: the quotient is exact and its decimal
// digits are those of base × 5^10. Anything else goes through append_json_number.
void append_scaled_number(std::string* out, double base, double divisor);

// The same texts written at `p`, which has room for kMaxNumberChars; each returns the end.
// write_json_number(p, v) writes what append_json_number appends.
inline constexpr size_t kMaxNumberChars = 32;
char* write_scaled_number(char* p, double base, double divisor);
char* write_json_number(char* p, double v);

// std::to_chars(p, p + 20, v), byte for byte. Values from 10^16 (a record line's wall-clock ns
// timestamps, 19 digits: about a third of its integers) write their last 16 digits eight at a
// time with integer arithmetic on 64-bit words, not two at a time through a table.
char* write_int(char* p, int64_t v);

// Appends `s` as a quoted JSON string (UTF-8 passed through, control characters escaped).
inline void append_json_string(std::string* out, std::string_view s) { core::append_json_string(s, out); }

// `text` with every registered secret literal (core/secrets.h: the --api-key, secret -H values,
// URL passwords) replaced by "<redacted>". Used on everything we echo (command line, config,
// error messages, warnings, inputs.json). Nothing is rewritten by pattern: prompt and response
// text that merely mentions a "bearer" or a "token" is kept as it is.
std::string scrub_secrets(std::string_view text);

// CSV field: quoted when it contains a comma, quote or newline (RFC 4180).
std::string csv_field(std::string_view s);

}  // namespace servebench::exporter
