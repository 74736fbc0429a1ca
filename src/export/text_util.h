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
