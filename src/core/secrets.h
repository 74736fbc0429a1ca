// Secrets: the one place that knows which values must never be written anywhere.
//
// Two parts:
//  1. Header classification. Every -H value is treated as a credential unless its header name
//     is on a short allow-list of headers that carry no credentials by definition: Accept,
//     Accept-Encoding, Accept-Language, Cache-Control, Connection, Content-Type, User-Agent,
//     X-Correlation-ID, X-Request-ID. Unknown names are secret, so a new token header
//     (X-Auth-Token, Private-Token, Ocp-Apim-Subscription-Key...) is never shown by accident.
//  2. A process-wide registry of literal secret values (the --api-key, secret header values, URL
//     passwords). It is filled at start-up, before any thread runs load, and `scrub` replaces each
//     registered literal wherever it appears: command lines, configs, error messages, warnings,
//     logs, inputs.json. Text is never rewritten by pattern (a prompt saying "the bearer token"
//     stays as it was sent); only the exact registered values are.
//
// Values shorter than kMinSecretBytes are not registered: replacing "1" or "abc" in every
// artifact would corrupt unrelated text (numbers, prompts). Such values are still redacted where
// they are known structurally (the command line, input_config.headers).
//
// Thread safety: add() and scrub() may be called from any thread (reader/writer lock); scrub()
// on an empty registry costs one atomic load and a copy.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace servebench::core::secrets {

inline constexpr size_t kMinSecretBytes = 6;
inline constexpr std::string_view kRedacted = "<redacted>";

// True for the allow-listed header names above (ASCII case-insensitive). `name` is the header
// name alone, without ':'.
bool is_harmless_header(std::string_view name);

// The allow-list, for documentation (--help) and tests.
const std::vector<std::string_view>& harmless_headers();

// "Name: value" → "Name: <redacted>" unless the name is harmless; a line without ':' is
// redacted whole.
std::string redact_header_line(std::string_view header_line);

// Registers `value` (and, when the value starts with an auth scheme such as "Bearer " or
// "Basic ", the credential after it; and its JSON-escaped form when that differs). Values
// shorter than kMinSecretBytes are ignored.
void add(std::string_view value);

// Registers the value part of a "Name: value" header line unless the name is harmless.
void add_header_value(std::string_view header_line);

// `text` with every registered literal replaced by "<redacted>" (longest literal first).
std::string scrub(std::string_view text);

// Number of registered literals (tests).
size_t size();

// Forgets every registered literal. For tests only: a real run registers once at start-up.
void clear_for_testing();

}  // namespace servebench::core::secrets
