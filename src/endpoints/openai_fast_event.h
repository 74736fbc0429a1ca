// The fast path of the chat/completions response parser (openai_event_parser.cc): a small,
// strict, allocation-free JSON scanner for the event shapes OpenAI-compatible servers stream
// most (content, role-only, finish, plain usage), tried before simdjson's on-demand walk, which
// cost ~2,400 instructions for a 250-byte event (callgrind, bench_sse_events).
//
// It either gives exactly what the general path would record for the payload, or says "not
// handled" and the general path runs unchanged. So it:
//   - accepts a subset of valid JSON only: one object, nothing after it, every value scanned by
//     JSON's grammar (skipped ones too), at most kFastMaxDepth levels;
//   - is not handled on any byte >= 0x80 (UTF-8 validation stays with simdjson), any \u escape,
//     an escaped key, or anything it does not mirror: a non-null `error`, "object":"error", an
//     object `usageMetadata`, `function_call` or non-empty `tool_calls`, a usage key the general
//     reader reads other than prompt/completion/total_tokens and the two details objects, a
//     count that is not a plain non-negative integer of at most 15 digits, a usage key or a
//     second usage object or `choices` array met twice, an escaped finish_reason;
//   - reads what the general path reads, with the same rules: choices[0] only,
//     delta|message.content and .text (the last string wins), reasoning_content|reasoning (the
//     last non-empty string wins), finish_reason (the last non-empty string wins), usage counts
//     normalised as read_usage_object would (usage_fields.h); simple escapes (\" \\ \/ \b \f
//     \n \r \t) in the texts are decoded.
// The scanner works on its own padded copy of the payload (a buffer that grows to the largest
// payload seen, then is reused: no allocation per event); text views point into it and stay
// valid until the next scan.
//
// Thread safety: one scanner per parser (per worker).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "endpoints/endpoint.h"
#include "record/request_record.h"

namespace servebench::endpoints {

inline constexpr int kFastMaxDepth = 32;

// What one handled event carried.
struct FastEvent {
  std::string_view content;        // output text ("" when none)
  std::string_view reasoning;      // reasoning text ("" when none)
  std::string_view finish_reason;  // "" when none
  bool has_usage = false;          // a usage object reported a count: `usage` holds it
  record::Usage usage;             // as the general path's per-event usage (valid with has_usage)
};

class OpenAiFastScanner {
 public:
  // `json`: the trimmed payload of one event or body. True when handled (*out then holds
  // everything the event carried); false when the general path must parse it (*out is then
  // meaningless).
  bool scan(std::string_view json, FastEvent* out);

 private:
  std::string buf_;  // the payload, then NUL bytes; escapes are decoded in place
};

// For tests: the chat/completions parser with its fast path (the default) or the general path
// only, and how many events a parser made here took the fast path (-1 for any other parser).
// Defined in openai_event_parser.cc.
enum class OpenAiParsePath { kFastFirst, kGeneralOnly };
std::unique_ptr<EventParser> make_openai_event_parser(OpenAiParsePath path);
int64_t openai_fast_path_events(const EventParser& parser);

}  // namespace servebench::endpoints
