// Knobs: the per-request latency and fault settings of servebench-mock, and the parser of the
// `X-Mock-Scenario` request header that overrides them for one request.
//
// The server's flags fill one RequestKnobs (the defaults); each request starts from a copy and
// applies its scenario header, so one server can serve many test cases at once.
//
// Scenario header grammar: `key=value;key=value;...` (spaces around items are ignored, empty
// items are skipped). Keys (same meaning as the flags of the same name):
//   ttft_ms, itl_ms, prefill_us_per_token, jitter_cv, tokens_per_chunk, reasoning_tokens,
//   error_rate (percent, 0..100), error_kind (http500|http429|reset|stall|malformed|error-event;
//   `_` may replace `-`), early_role (0|1), output_tokens (forces the output length, as if
//   ignore_eos with that max), tool_calls (0|1: chat answers as one function call whose
//   arguments are the generated text), cached_tokens (N: usage reports
//   prompt_tokens_details.cached_tokens = min(N, prompt tokens)).
// Unknown keys or bad values are errors (the server answers 400 naming the item).
//
// Thread safety: plain values; the parser is a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::mock {

// kMixed: each failing request gets one of http500, http429, reset, malformed, error-event, drawn
// from its seeded stream (never stall, which would hold a connection until the stall timeout).
enum class FaultKind { kNone, kHttp500, kHttp429, kReset, kStall, kMalformed, kErrorEvent, kMixed };

// "http500" → kHttp500 ...; accepts `error_event` too. kNone is never parsed.
Result<FaultKind> parse_fault_kind(std::string_view text);
const char* fault_kind_name(FaultKind kind);

struct RequestKnobs {
  int64_t ttft_ns = 0;               // --ttft-ms: time to first token (after admission)
  int64_t itl_ns = 0;                // --itl-ms: gap between consecutive SSE token events
  int64_t prefill_ns_per_token = 0;  // --prefill-us-per-token: TTFT grows with prompt tokens
  double jitter_cv = 0.0;            // --jitter-cv: log-normal noise on TTFT and each gap
  int64_t tokens_per_chunk = 1;      // --tokens-per-chunk: tokens per SSE event (>= 1)
  int64_t reasoning_tokens = 0;      // --reasoning-tokens: first N tokens as reasoning
  double error_rate_pct = 0.0;       // --error-rate: share of requests that get the fault
  FaultKind error_kind = FaultKind::kHttp500;  // --error-kind
  bool early_role = false;                     // --early-role-chunk: role chunk with the headers
  std::optional<int64_t> output_tokens;  // scenario only: force exactly this many output tokens
  bool tool_calls = false;               // --tool-calls: chat answers with a function call
  int64_t cached_tokens = -1;            // --cached-tokens: reported prefix-cache hits (-1: none)
  int64_t spec_decode_draft = -1;        // --spec-decode K: speculative-decoding counts in usage
};

// Applies `header` (the X-Mock-Scenario value) on top of `base`. Errors are one line naming the
// offending item, e.g. "X-Mock-Scenario: bad value 'x' for itl_ms (want a number >= 0)".
Result<RequestKnobs> apply_scenario(const RequestKnobs& base, std::string_view header);

}  // namespace servebench::mock
