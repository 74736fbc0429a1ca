// The fast path of the chat/completions parser (openai_fast_event.h has what it handles and
// why). One recursive-descent pass over the payload, which both checks JSON's grammar and reads
// the fields; every "not handled" is a plain `return false` that unwinds to scan().
//
// Strings are scanned eight bytes at a time (a word test for '"', '\\', control bytes and bytes
// >= 0x80) while eight bytes of payload remain, then byte by byte: the payload has no padding.
#include "endpoints/openai_fast_event.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "endpoints/usage_fields.h"

namespace servebench::endpoints {

namespace {

// A scanned string: its raw bytes between the quotes, and whether they hold an escape.
struct JsonStr {
  const char* data;
  size_t size;
  bool escaped;
  std::string_view raw() const { return {data, size}; }
};

template <size_t N>
[[gnu::always_inline]] inline bool key_is(const JsonStr& key, const char (&name)[N]) {
  return key.size == N - 1 && std::memcmp(key.data, name, N - 1) == 0;
}

inline bool is_json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A byte a string scan stops at: the closing quote, an escape, or one it does not handle.
inline bool stops_string(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u >= 0x80 || c == '"' || c == '\\';
}

// The high bit of each byte of `w` that stops_string; the lowest one set is exact (the borrows
// that can flag higher bytes only run upwards from a byte that is flagged itself).
inline uint64_t stopping_bytes(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t quote = w ^ (kOnes * '"');
  const uint64_t slash = w ^ (kOnes * '\\');
  uint64_t m = (quote - kOnes) & ~quote;
  m |= (slash - kOnes) & ~slash;
  m |= (w - kOnes * 0x20) & ~w;  // bytes below 0x20
  m |= w;                        // bytes >= 0x80
  return m & kHigh;
}

// The escapes handled (\u is not): the byte each stands for, or 0.
inline char unescaped(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return 0;
  }
}

// The text of a scanned string: its bytes, or its escapes decoded into *scratch.
std::string_view decoded(const JsonStr& s, std::string* scratch) {
  if (!s.escaped) return s.raw();
  scratch->clear();
  const char* p = s.data;
  const char* end = s.data + s.size;
  while (p < end) {
    const void* hit = std::memchr(p, '\\', static_cast<size_t>(end - p));
    const char* bs = hit ? static_cast<const char*>(hit) : end;
    scratch->append(p, static_cast<size_t>(bs - p));
    if (bs == end) break;
    scratch->push_back(unescaped(bs[1]));  // the scan let only handled escapes through
    p = bs + 2;
  }
  return *scratch;
}

// The usage counts mirrored from usage_fields.h: a plain OpenAI usage object and its two
// details objects. Any other key the general reader reads makes the event not handled.
enum UsageSlot : uint8_t {
  kUsagePrompt, kUsageCompletion, kUsageTotal,
  kUsageCached, kUsagePromptAudio,                                  // prompt_tokens_details
  kUsageReasoning, kUsageCompletionAudio, kUsageAccepted, kUsageRejected,  // completion_...
  kUsageSlots,
};

struct UsageName {
  std::string_view key;
  UsageSlot slot;
};
constexpr UsageName kUsageTopNames[] = {{"prompt_tokens", kUsagePrompt},
                                        {"completion_tokens", kUsageCompletion},
                                        {"total_tokens", kUsageTotal}};
constexpr UsageName kPromptDetailNames[] = {{"cached_tokens", kUsageCached},
                                            {"audio_tokens", kUsagePromptAudio}};
constexpr UsageName kCompletionDetailNames[] = {
    {"reasoning_tokens", kUsageReasoning},
    {"audio_tokens", kUsageCompletionAudio},
    {"accepted_prediction_tokens", kUsageAccepted},
    {"rejected_prediction_tokens", kUsageRejected}};

struct UsageCounts {
  int64_t count[kUsageSlots];
  uint32_t seen = 0;  // slots whose key was met (a second one is not handled)
  UsageCounts() { std::fill(std::begin(count), std::end(count), -1); }

  // The per-event usage read_usage_object would give (only these slots can be present).
  record::Usage usage() const {
    record::Usage u;
    u.prompt_tokens = count[kUsagePrompt];
    u.completion_tokens = count[kUsageCompletion];
    u.total_tokens = count[kUsageTotal];
    u.prompt_cache_read_tokens = count[kUsageCached];
    u.prompt_audio_tokens = count[kUsagePromptAudio];
    u.reasoning_tokens = count[kUsageReasoning];
    u.completion_audio_tokens = count[kUsageCompletionAudio];
    u.accepted_prediction_tokens = count[kUsageAccepted];
    u.rejected_prediction_tokens = count[kUsageRejected];
    return u;
  }
};

// Top-level fields that may be met once only.
enum SeenBit : uint32_t { kSeenChoices = 1, kSeenUsage = 2 };

class FastScan {
 public:
  FastScan(std::string_view json, FastEvent* out, std::string* content_scratch,
           std::string* reasoning_scratch)
      : p_(json.data()),
        end_(json.data() + json.size()),
        out_(out),
        content_scratch_(content_scratch),
        reasoning_scratch_(reasoning_scratch) {}

  // The whole payload: one object and nothing after it.
  bool event() {
    if (!at('{')) return false;
    if (!object(1, [this](const JsonStr& key) { return top_field(key); })) return false;
    return p_ == end_;
  }

 private:
  // ---- JSON's grammar ----

  bool at(char c) const { return p_ < end_ && *p_ == c; }
  void skip_space() {
    while (p_ < end_ && is_json_space(*p_)) ++p_;
  }

  // Moves p_ to the next byte that stops_string; false at the end of the payload.
  bool find_stop() {
    if constexpr (std::endian::native == std::endian::little) {
      while (end_ - p_ >= 8) {
        uint64_t w;
        std::memcpy(&w, p_, 8);
        if (const uint64_t m = stopping_bytes(w)) {
          p_ += std::countr_zero(m) >> 3;
          return true;
        }
        p_ += 8;
      }
    }
    for (; p_ < end_; ++p_) {
      if (stops_string(*p_)) return true;
    }
    return false;
  }

  // At an opening quote.
  bool string(JsonStr* s) {
    const char* start = ++p_;
    bool escaped = false;
    for (;;) {
      if (!find_stop()) return false;
      if (*p_ == '"') break;
      if (*p_ != '\\' || end_ - p_ < 2 || unescaped(p_[1]) == 0) return false;
      escaped = true;
      p_ += 2;
    }
    *s = JsonStr{start, static_cast<size_t>(p_ - start), escaped};
    ++p_;
    return true;
  }

  template <size_t N>
  bool literal(const char (&word)[N]) {
    if (static_cast<size_t>(end_ - p_) < N - 1 || std::memcmp(p_, word, N - 1) != 0) return false;
    p_ += N - 1;
    return true;
  }

  bool digits() {
    if (p_ >= end_ || !is_digit(*p_)) return false;
    while (++p_ < end_ && is_digit(*p_)) {
    }
    return true;
  }

  // A number by JSON's grammar. *count: its value when it is a non-negative integer of at most
  // 15 digits (exact in the double the general reader converts through), else -1.
  bool number(int64_t* count) {
    const bool negative = at('-');
    if (negative) ++p_;
    const char* int_start = p_;
    if (at('0')) {
      ++p_;
    } else if (!digits()) {
      return false;
    }
    const char* int_end = p_;
    bool plain = !negative;
    if (at('.')) {
      ++p_;
      if (!digits()) return false;
      plain = false;
    }
    if (at('e') || at('E')) {
      ++p_;
      if (at('+') || at('-')) ++p_;
      if (!digits()) return false;
      plain = false;
    }
    *count = -1;
    if (plain && int_end - int_start <= 15) {
      int64_t n = 0;
      for (const char* d = int_start; d < int_end; ++d) n = n * 10 + (*d - '0');
      *count = n;
    }
    return true;
  }

  // Calls member(key) for each member of the object at p_, with p_ at the member's value,
  // which the callback must consume.
  template <class Fn>
  bool object(int depth, Fn&& member) {
    if (depth > kFastMaxDepth) return false;
    ++p_;
    skip_space();
    if (at('}')) {
      ++p_;
      return true;
    }
    for (;;) {
      JsonStr key;
      if (!at('"') || !string(&key) || key.escaped) return false;
      skip_space();
      if (!at(':')) return false;
      ++p_;
      skip_space();
      if (p_ == end_ || !member(key)) return false;
      skip_space();
      if (at(',')) {
        ++p_;
        skip_space();
        continue;
      }
      if (!at('}')) return false;
      ++p_;
      return true;
    }
  }

  // Calls element(index) for each element of the array at p_, as object() does.
  template <class Fn>
  bool array(int depth, Fn&& element) {
    if (depth > kFastMaxDepth) return false;
    ++p_;
    skip_space();
    if (at(']')) {
      ++p_;
      return true;
    }
    for (size_t i = 0;; ++i) {
      if (p_ == end_ || !element(i)) return false;
      skip_space();
      if (at(',')) {
        ++p_;
        skip_space();
        continue;
      }
      if (!at(']')) return false;
      ++p_;
      return true;
    }
  }

  // Any value at p_ (p_ < end_), checked and not read; `depth` is its container's.
  bool skip(int depth) {
    switch (*p_) {
      case '"': {
        JsonStr s;
        return string(&s);
      }
      case '{': return object(depth + 1, [this, depth](const JsonStr&) { return skip(depth + 1); });
      case '[': return array(depth + 1, [this, depth](size_t) { return skip(depth + 1); });
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: {
        int64_t n;
        return number(&n);
      }
    }
  }

  // ---- the event's fields ----

  bool top_field(const JsonStr& key) {
    if (key_is(key, "choices")) return *p_ == '[' ? choices() : skip(1);
    if (key_is(key, "usage")) return *p_ == '{' ? usage() : skip(1);
    if (key_is(key, "object")) return *p_ == '"' ? object_type() : skip(1);
    if (key_is(key, "error")) return literal("null");  // any other error is not handled
    if (key_is(key, "usageMetadata")) return *p_ != '{' && skip(1);
    return skip(1);
  }

  bool once(SeenBit bit) {
    if (seen_ & bit) return false;
    seen_ |= bit;
    return true;
  }

  // "object": "error" marks an error payload.
  bool object_type() {
    JsonStr s;
    return string(&s) && !s.escaped && s.raw() != "error";
  }

  // Only the first choice is read; the rest are checked and skipped.
  bool choices() {
    if (!once(kSeenChoices)) return false;
    return array(2, [this](size_t i) { return i == 0 && *p_ == '{' ? choice() : skip(2); });
  }

  bool choice() {
    return object(3, [this](const JsonStr& key) {
      if (key_is(key, "delta") || key_is(key, "message")) return *p_ == '{' ? message() : skip(3);
      if (key_is(key, "text")) return *p_ == '"' ? text(&out_->content, content_scratch_) : skip(3);
      if (key_is(key, "finish_reason")) return *p_ == '"' ? finish_reason() : skip(3);
      return skip(3);
    });
  }

  bool message() {
    return object(4, [this](const JsonStr& key) {
      if (key_is(key, "content")) return *p_ == '"' ? text(&out_->content, content_scratch_) : skip(4);
      if (key_is(key, "reasoning_content") || key_is(key, "reasoning")) {
        return *p_ == '"' ? reasoning() : skip(4);
      }
      if (key_is(key, "tool_calls")) return *p_ == '[' ? empty_array() : skip(4);
      if (key_is(key, "function_call")) return *p_ != '{' && skip(4);
      return skip(4);
    });
  }

  // A string that replaces *out.
  bool text(std::string_view* out, std::string* scratch) {
    JsonStr s;
    if (!string(&s)) return false;
    *out = decoded(s, scratch);
    return true;
  }

  // A reasoning string replaces the event's reasoning only when non-empty (an escaped string
  // is never empty, so an empty one cannot clobber the scratch).
  bool reasoning() {
    JsonStr s;
    if (!string(&s)) return false;
    if (s.size > 0) out_->reasoning = decoded(s, reasoning_scratch_);
    return true;
  }

  bool finish_reason() {
    JsonStr s;
    if (!string(&s) || s.escaped) return false;
    if (s.size > 0) out_->finish_reason = s.raw();
    return true;
  }

  // `[]` (with any spaces); tool calls themselves are not handled.
  bool empty_array() {
    ++p_;
    skip_space();
    if (!at(']')) return false;
    ++p_;
    return true;
  }

  // ---- usage ----

  bool usage() {
    if (!once(kSeenUsage)) return false;
    UsageCounts counts;
    if (!object(2, [this, &counts](const JsonStr& key) { return usage_field(key, &counts); })) {
      return false;
    }
    out_->usage = counts.usage();
    out_->has_usage = any_usage(out_->usage);
    return true;
  }

  bool usage_field(const JsonStr& key, UsageCounts* counts) {
    for (const UsageName& n : kUsageTopNames) {
      if (key.raw() == n.key) return count(n.slot, 2, counts);
    }
    if (key_is(key, "prompt_tokens_details")) return details(kPromptDetailNames, counts);
    if (key_is(key, "completion_tokens_details")) return details(kCompletionDetailNames, counts);
    // A key the general reader reads but this one does not mirror: not handled.
    return !reads_usage_key(key.raw()) && skip(2);
  }

  // A details object's counts; its other fields are not read by the general reader either.
  template <size_t N>
  bool details(const UsageName (&names)[N], UsageCounts* counts) {
    if (*p_ != '{') return skip(2);
    return object(3, [this, &names, counts](const JsonStr& key) {
      for (const UsageName& n : names) {
        if (key.raw() == n.key) return count(n.slot, 3, counts);
      }
      return skip(3);
    });
  }

  // A count: a plain integer, or any non-number (which counts as absent, as in the general
  // reader). Other numbers are not handled. `depth`: the count's object's.
  bool count(UsageSlot slot, int depth, UsageCounts* counts) {
    const uint32_t bit = 1u << slot;
    if (counts->seen & bit) return false;
    counts->seen |= bit;
    if (*p_ != '-' && !is_digit(*p_)) return skip(depth);
    int64_t n;
    if (!number(&n) || n < 0) return false;
    counts->count[slot] = n;
    return true;
  }

  const char* p_;
  const char* const end_;
  FastEvent* const out_;
  std::string* const content_scratch_;
  std::string* const reasoning_scratch_;
  uint32_t seen_ = 0;  // SeenBit
};

}  // namespace

bool OpenAiFastScanner::scan(std::string_view json, FastEvent* out) {
  out->content = {};
  out->reasoning = {};
  out->finish_reason = {};
  out->has_usage = false;
  return FastScan(json, out, &content_scratch_, &reasoning_scratch_).event();
}

}  // namespace servebench::endpoints
