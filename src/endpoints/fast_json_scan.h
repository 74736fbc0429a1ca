// A small, strict, allocation-free JSON scanner: the grammar under the chat parser's fast path
// (openai_fast_event.h), which drives it one value at a time, reading the members it wants and
// skipping, but still checking, the rest. Internal to src/endpoints/.
//
// It works on a copy of the payload (copy_ascii) that holds no byte >= 0x80 (UTF-8 validation
// stays with simdjson) and is followed by kPad NUL bytes. A NUL stops every scanning loop (it is
// no space, digit or literal byte, and a control byte, which a string may not hold), so no loop
// tests for the end of the payload. Each function takes the cursor and returns it past what it
// scanned, or nullptr where the text is not JSON it accepts: invalid JSON, a \u escape, an
// escaped key, nesting deeper than kFastMaxDepth. Escapes are decoded in place (decoding only
// shortens a string).
//
// Cost is latency more than instructions: the end of each string is found by a 16-byte load, a
// few vector operations and a bit scan (SSE2, which every x86-64 has; byte by byte elsewhere),
// and the next string cannot be looked at before that is known. So the keys servers write are
// matched by their bytes first (match_key), which moves the cursor on by a constant.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "endpoints/openai_fast_event.h"

namespace servebench::endpoints::fastjson {

// A 32-byte read from any byte up to the first pad byte stays inside the buffer.
inline constexpr size_t kPad = 32;

// A scanned string: its raw bytes between the quotes, and whether they hold an escape.
struct JsonStr {
  char* data;
  size_t size;
  bool escaped;
  std::string_view raw() const { return {data, size}; }
};

template <class T>
inline T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// a[0, N) == b[0, N) for a constant N <= 32, in at most four loads a side.
template <size_t N>
[[gnu::always_inline]] inline bool same_bytes(const char* a, const char* b) {
  if constexpr (N > 16) {
    static_assert(N <= 32);
    return same_bytes<16>(a, b) && same_bytes<N - 16>(a + 16, b + 16);
  } else if constexpr (N >= 8) {
    return load<uint64_t>(a) == load<uint64_t>(b) &&
           load<uint64_t>(a + N - 8) == load<uint64_t>(b + N - 8);
  } else if constexpr (N >= 4) {
    return load<uint32_t>(a) == load<uint32_t>(b) &&
           load<uint32_t>(a + N - 4) == load<uint32_t>(b + N - 4);
  } else {
    return std::memcmp(a, b, N) == 0;
  }
}

template <size_t N>
[[gnu::always_inline]] inline bool key_is(const JsonStr& key, const char (&name)[N]) {
  return key.size == N - 1 && same_bytes<N - 1>(key.data, name);
}

// Keys as servers write them, `"name":`, tried in order by their bytes before any scanning: a
// match moves the cursor on by a constant, where scanning the key would put a load, the string
// test and a bit scan on the critical path of the whole walk. Past the colon, or nullptr (*key
// is then unset).
template <size_t... N>
[[gnu::always_inline]] inline char* match_key(char* p, JsonStr* key, const char (&... lits)[N]) {
  char* next = nullptr;
  (void)((same_bytes<N - 1>(p, lits) && (*key = JsonStr{p + 1, N - 4, false}, next = p + N - 1)) ||
         ...);
  return next;
}

// A scan_object matcher for objects whose keys are not known ahead.
[[gnu::always_inline]] inline char* no_known_keys(char*, JsonStr*) { return nullptr; }

inline bool is_json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
// Every JSON space is <= ' ': one test rules them out.
inline bool maybe_space(char c) { return static_cast<unsigned char>(c) <= ' '; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The bytes that end a plain run of string bytes: '"', '\\', a control byte or a byte >= 0x80.
// Returns the first one at or after p (the pad's NUL bytes stop every run).
#if defined(__SSE2__)
// The buffer holds no byte >= 0x80 (copy_ascii), which lets one test take both '"' and the
// control bytes: b ^ 2 maps 0x22 to 0x20 and 0x00-0x1f onto themselves, so the bytes wanted
// are those with (b ^ 2) <= 0x20, i.e. (b ^ 2) -| 0x20 == 0 (saturating subtraction).
inline char* find_stop(char* p) {
  const __m128i two = _mm_set1_epi8(2);
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i slash = _mm_set1_epi8('\\');
  const __m128i zero = _mm_setzero_si128();
  for (;; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i low = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_xor_si128(v, two), space), zero);
    const __m128i stop = _mm_or_si128(low, _mm_cmpeq_epi8(v, slash));
    if (const auto m = static_cast<unsigned>(_mm_movemask_epi8(stop))) {
      return p + std::countr_zero(m);
    }
  }
}
#else
inline char* find_stop(char* p) {
  while (static_cast<unsigned char>(*p) >= 0x20 && *p != '"' && *p != '\\') ++p;
  return p;
}
#endif

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

// The text of a scanned string, its escapes (all handled ones: the scan let no other through)
// decoded in place.
inline std::string_view text_of(const JsonStr& s) {
  if (!s.escaped) return s.raw();
  const char* r = s.data;
  const char* end = s.data + s.size;
  char* w = s.data;
  while (r < end) {
    if (*r == '\\') {
      *w++ = unescaped(r[1]);
      r += 2;
    } else {
      *w++ = *r++;
    }
  }
  return {s.data, static_cast<size_t>(w - s.data)};
}

// ---- values ----

// Out of line: the events servers stream are compact, so the test for a space is usually all
// that runs.
[[gnu::noinline, gnu::cold]] inline char* skip_spaces(char* p) {
  while (is_json_space(*p)) ++p;
  return p;
}

[[gnu::always_inline]] inline char* skip_space(char* p) {
  return maybe_space(*p) ? skip_spaces(p) : p;
}

// Past the byte c, spaces allowed before it; nullptr when another byte comes.
[[gnu::always_inline]] inline char* expect(char* p, char c) {
  if (*p == c) return p + 1;
  p = skip_space(p);
  return *p == c ? p + 1 : nullptr;
}

// A string at p (its opening quote). Escaped: JSON's \u excepted.
[[gnu::always_inline]] inline char* scan_string(char* p, JsonStr* s) {
  char* start = ++p;
  bool escaped = false;
  for (;;) {
    p = find_stop(p);
    if (*p == '"') break;
    if (*p != '\\' || unescaped(p[1]) == 0) return nullptr;
    escaped = true;
    p += 2;
  }
  *s = JsonStr{start, static_cast<size_t>(p - start), escaped};
  return p + 1;
}

// A key: a string without escapes.
[[gnu::always_inline]] inline char* scan_key(char* p, JsonStr* s) {
  char* start = ++p;
  p = find_stop(p);
  if (*p != '"') return nullptr;
  *s = JsonStr{start, static_cast<size_t>(p - start), false};
  return p + 1;
}

template <size_t N>
inline char* scan_literal(char* p, const char (&word)[N]) {
  return same_bytes<N - 1>(p, word) ? p + N - 1 : nullptr;
}

inline char* scan_digits(char* p) {
  if (!is_digit(*p)) return nullptr;
  while (is_digit(*++p)) {
  }
  return p;
}

// The fraction and exponent of a number, after its integer part.
inline char* scan_fraction(char* p) {
  if (*p == '.' && !(p = scan_digits(p + 1))) return nullptr;
  if (*p == 'e' || *p == 'E') {
    ++p;
    if (*p == '+' || *p == '-') ++p;
    p = scan_digits(p);
  }
  return p;
}

// A number by JSON's grammar, not read.
inline char* scan_number(char* p) {
  if (*p == '-') ++p;
  p = *p == '0' ? p + 1 : scan_digits(p);
  return p ? scan_fraction(p) : nullptr;
}

// A number by JSON's grammar. *count: its value when it is a non-negative integer of at most
// 15 digits (exact in the double the general reader converts through), else -1.
inline char* scan_count(char* p, int64_t* count) {
  *count = -1;
  if (!is_digit(*p)) return scan_number(p);
  const char* start = p;
  uint64_t n = static_cast<uint64_t>(*p - '0');
  if (n != 0) {
    while (is_digit(*++p)) n = n * 10 + static_cast<uint64_t>(*p - '0');  // may wrap: unused then
  } else {
    ++p;
  }
  if (*p == '.' || *p == 'e' || *p == 'E') return scan_fraction(p);
  if (p - start <= 15) *count = static_cast<int64_t>(n);
  return p;
}

// After a container's element at p: +1 past a ',' (another element follows), 0 past the
// closing byte `close`, -1 on anything else. Compact JSON is tested first.
[[gnu::always_inline]] inline int after_element(char** p, char close) {
  char* q = *p;
  *p = q + 1;
  if (*q == ',') return 1;
  if (*q == close) return 0;
  q = skip_space(q);
  *p = q + 1;
  return *q == ',' ? 1 : *q == close ? 0 : -1;
}

// Calls member(key, p) -> p for each member of the object at p; the callback scans the value.
// known(p, &key) -> p matches the keys expected there (match_key).
template <class Known, class Fn>
[[gnu::always_inline]] inline char* scan_object(char* p, int depth, Known&& known, Fn&& member) {
  if (depth > kFastMaxDepth) return nullptr;
  ++p;
  if (*p != '"') {
    p = skip_space(p);
    if (*p == '}') return p + 1;
  }
  for (;;) {
    if (*p != '"' && *(p = skip_space(p)) != '"') return nullptr;
    JsonStr key;
    if (char* next = known(p, &key)) {
      p = next;
    } else if (!(p = scan_key(p, &key)) || !(p = expect(p, ':'))) {
      return nullptr;
    }
    if (!(p = member(key, skip_space(p)))) return nullptr;
    const int next = after_element(&p, '}');
    if (next <= 0) return next == 0 ? p : nullptr;
  }
}

// Calls element(index, p) -> p for each element of the array at p.
template <class Fn>
[[gnu::always_inline]] inline char* scan_array(char* p, int depth, Fn&& element) {
  if (depth > kFastMaxDepth) return nullptr;
  p = skip_space(p + 1);
  if (*p == ']') return p + 1;
  for (size_t i = 0;; ++i) {
    if (!(p = element(i, skip_space(p)))) return nullptr;
    const int next = after_element(&p, ']');
    if (next <= 0) return next == 0 ? p : nullptr;
  }
}

inline char* skip_value(char* p, int depth);

// A string at p, checked and not read.
[[gnu::always_inline]] inline char* skip_string(char* p) {
  JsonStr unused;
  return scan_string(p, &unused);
}

// Any value at p, checked and not read; `depth`: its container's.
[[gnu::always_inline]] inline char* skip(char* p, int depth) {
  if (*p == '"') return skip_string(p);
  if (*p == 'n') return scan_literal(p, "null");
  if (is_digit(*p)) return scan_number(p);
  return skip_value(p, depth);
}

inline char* skip_value(char* p, int depth) {
  switch (*p) {
    case '{':
      return scan_object(p, depth + 1, no_known_keys, [depth](const JsonStr&, char* v) {
        return skip(v, depth + 1);
      });
    case '[':
      return scan_array(p, depth + 1, [depth](size_t, char* v) { return skip(v, depth + 1); });
    case 't': return scan_literal(p, "true");
    case 'f': return scan_literal(p, "false");
    case '"':
    case 'n': return skip(p, depth);
    default: return scan_number(p);
  }
}

// Copies n bytes from src to dst; false when one of them is >= 0x80 (such payloads are left to
// the general path, which validates UTF-8: checking here first makes giving up on them cheap).
inline bool copy_ascii(char* dst, const char* src, size_t n) {
#if defined(__SSE2__)
  if (n >= 16) {
    auto copy16 = [dst, src](size_t i) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), v);
      return v;
    };
    __m128i high = _mm_setzero_si128();
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
      high = _mm_or_si128(high, _mm_or_si128(_mm_or_si128(copy16(i), copy16(i + 16)),
                                             _mm_or_si128(copy16(i + 32), copy16(i + 48))));
    }
    for (; i + 16 <= n; i += 16) high = _mm_or_si128(high, copy16(i));
    return _mm_movemask_epi8(_mm_or_si128(high, copy16(n - 16))) == 0;
  }
#endif
  unsigned char high = 0;
  for (size_t i = 0; i < n; ++i) high |= static_cast<unsigned char>(dst[i] = src[i]);
  return high < 0x80;
}

}  // namespace servebench::endpoints::fastjson
