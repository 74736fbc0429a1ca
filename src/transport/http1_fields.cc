#include "transport/http1_fields.h"

#include <array>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace servebench::transport::http1 {

namespace {

// tchar (RFC 9110 §5.6.2): "!#$%&'*+-.^_`|~", digits and letters.
constexpr std::array<bool, 256> kTokenChars = [] {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = t[c - 'a' + 'A'] = true;
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

bool is_token_char(char c) { return kTokenChars[static_cast<unsigned char>(c)]; }
// Field-value and reason-phrase bytes: HTAB, SP, VCHAR, obs-text (no other control bytes).
bool is_text(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 0x20 && u != 0x7f) || u == '\t';
}
bool is_ows(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Records why and returns 0 (false): "nothing parsed".
size_t fail(std::string* error, const char* why) {
  *error = why;
  return 0;
}

bool iequals(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && is_ows(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ows(s.back())) s.remove_suffix(1);
  return s;
}

// Calls f(token) for each token of an RFC 9110 #token list (OWS and empty elements skipped).
// Stops at the first byte that is neither a token, OWS nor a comma, or at two tokens without a
// comma between them, and then returns false.
template <class F>
bool walk_tokens(std::string_view list, F&& f) {
  bool need_comma = false;
  for (size_t i = 0;;) {
    while (i < list.size() && is_ows(list[i])) ++i;
    if (i == list.size()) return true;
    if (is_token_char(list[i])) {
      if (need_comma) return false;
      const size_t start = i;
      while (i < list.size() && is_token_char(list[i])) ++i;
      f(list.substr(start, i - start));
      need_comma = true;
    } else if (list[i] == ',') {
      need_comma = false;
      ++i;
    } else {
      return false;
    }
  }
}

bool parse_decimal(std::string_view s, uint64_t* v) {
  if (s.empty()) return false;
  uint64_t x = 0;
  for (char c : s) {
    if (!is_digit(c)) return false;
    const auto d = static_cast<uint64_t>(c - '0');
    if (x > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
    x = x * 10 + d;
  }
  *v = x;
  return true;
}

bool apply_content_length(std::string_view value, Framing* f, std::string* error) {
  if (f->chunked) return fail(error, "Content-Length with chunked Transfer-Encoding");
  // A list of equal decimals ("5, 5"), each element present.
  bool ok = true;
  for (std::string_view e = value;;) {
    const size_t comma = e.find(',');
    const std::string_view item = trim_ows(e.substr(0, comma));
    uint64_t v = 0;
    ok = ok && parse_decimal(item, &v) && (!f->has_length || v == f->length);
    if (ok) {
      f->has_length = true;
      f->length = v;
    }
    if (comma == std::string_view::npos) break;
    e.remove_prefix(comma + 1);
  }
  return ok || fail(error, "bad Content-Length");
}

bool apply_transfer_encoding(std::string_view value, Framing* f, std::string* error) {
  if (f->chunked) return fail(error, "Transfer-Encoding after chunked");
  if (f->has_length) return fail(error, "Transfer-Encoding with Content-Length");
  // chunked counts only as the final coding, and only its first mention (codings after an
  // unreadable element are not seen: then the body runs until close).
  bool seen_chunked = false, chunked_last = false;
  walk_tokens(value, [&](std::string_view t) {
    chunked_last = !seen_chunked && iequals(t, "chunked");
    seen_chunked = seen_chunked || chunked_last;
  });
  f->chunked = chunked_last;
  return true;
}

bool apply_field(std::string_view name, std::string_view value, Framing* f, std::string* error) {
  switch (name.size()) {
    case 10:  // Connection
    case 16:  // Proxy-Connection
      if (iequals(name, "connection") || iequals(name, "proxy-connection")) {
        const bool ok = walk_tokens(value, [f](std::string_view t) {
          if (iequals(t, "close")) f->close = true;
          if (iequals(t, "keep-alive")) f->keep_alive = true;
        });
        return ok || fail(error, "bad Connection header");
      }
      return true;
    case 14:
      return !iequals(name, "content-length") || apply_content_length(value, f, error);
    case 17:
      return !iequals(name, "transfer-encoding") || apply_transfer_encoding(value, f, error);
    default:
      return true;
  }
}

#if defined(__SSE2__)
// The index of the first of 16 bytes whose lane of `bad` is set (all ones), or 16.
inline size_t first_flagged(__m128i bad) {
  const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(bad));
  return mask == 0 ? 16 : static_cast<size_t>(__builtin_ctz(mask));
}
inline __m128i load16(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
// Bytes that are x <= limit, unsigned.
inline __m128i at_most(__m128i x, char limit) {
  return _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(limit)), x);
}
#endif

// Skips the field-name bytes from s[i] that are letters, digits or '-' (the bytes of every
// common name), 16 at a time where the vector unit allows; the caller's token-byte loop goes on
// from the first other byte, so the accepted names are exactly the token rule's.
size_t skip_common_name_bytes(std::string_view s, size_t i) {
#if defined(__SSE2__)
  while (i + 16 <= s.size()) {
    const __m128i x = load16(s.data() + i);
    const __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
    const __m128i letter = at_most(_mm_sub_epi8(lower, _mm_set1_epi8('a')), 'z' - 'a');
    const __m128i digit = at_most(_mm_sub_epi8(x, _mm_set1_epi8('0')), 9);
    const __m128i dash = _mm_cmpeq_epi8(x, _mm_set1_epi8('-'));
    const __m128i ok = _mm_or_si128(_mm_or_si128(letter, digit), dash);
    const size_t k = first_flagged(_mm_xor_si128(ok, _mm_set1_epi8(-1)));
    i += k;
    if (k < 16) break;
  }
#endif
  return i;
}

// Skips whole 8-byte words of text bytes from block[i] (SWAR: a word passes when none of its
// bytes is below 0x20 or equal to 0x7f; bytes from 0x80 are text), after 16-byte blocks with
// the vector unit; the caller finishes byte by byte, so a word with a tab or the line's CR is
// left to it.
size_t skip_text_words(std::string_view block, size_t i) {
#if defined(__SSE2__)
  while (i + 16 <= block.size()) {
    const __m128i x = load16(block.data() + i);
    const __m128i bad = _mm_or_si128(at_most(x, 0x1f), _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
    const size_t k = first_flagged(bad);
    i += k;
    if (k < 16) return i;
  }
#endif
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  while (i + 8 <= block.size()) {
    uint64_t w;
    std::memcpy(&w, block.data() + i, 8);
    const uint64_t below_space = (w - kOnes * 0x20) & ~w & kHighs;
    const uint64_t x = w ^ (kOnes * 0x7f);
    const uint64_t is_del = (x - kOnes) & ~x & kHighs;
    if ((below_space | is_del) != 0) break;
    i += 8;
  }
  return i;
}

enum class Piece { kOk, kIncomplete, kBad };

// One physical line's value part at s[*p]: leading OWS skipped, text bytes to CRLF, trailing OWS
// trimmed. Advances *p past the CRLF.
Piece value_piece(std::string_view s, size_t* p, std::string_view* piece) {
  size_t i = *p;
  while (i < s.size() && is_ows(s[i])) ++i;
  const size_t start = i;
  i = skip_text_words(s, i);
  while (i < s.size() && is_text(s[i])) ++i;
  if (i + 1 >= s.size()) return Piece::kIncomplete;
  if (s[i] != '\r' || s[i + 1] != '\n') return Piece::kBad;
  size_t end = i;
  while (end > start && is_ows(s[end - 1])) --end;
  *piece = s.substr(start, end - start);
  *p = i + 2;
  return Piece::kOk;
}

// *( BWS ";" BWS token [ BWS "=" BWS ( token / quoted-string ) ] ), as Beast reads it: BWS after
// a name must be followed by ";" or "=", and a quoted value's bytes are not checked (the
// extensions are ignored; the line has no CR before its end).
bool valid_chunk_extensions(std::string_view e) {
  size_t i = 0;
  auto skip_bws = [&] {
    const size_t from = i;
    while (i < e.size() && is_ows(e[i])) ++i;
    return i > from;
  };
  auto token = [&] {
    const size_t from = i;
    while (i < e.size() && is_token_char(e[i])) ++i;
    return i > from;
  };
  auto quoted = [&] {  // at '"': any bytes to the closing quote, a backslash escaping one
    for (++i; i < e.size(); ++i) {
      if (e[i] == '"') return ++i, true;
      if (e[i] == '\\') ++i;
    }
    return false;
  };
  while (i < e.size()) {
    skip_bws();
    if (i >= e.size() || e[i] != ';') return false;
    do {
      ++i;  // ';'
      skip_bws();
      if (!token()) return false;
      const bool bws = skip_bws();
      if (i < e.size() && e[i] == '=') break;
      if (i < e.size() && e[i] == ';') continue;
      return !bws && i == e.size();
    } while (true);
    ++i;  // '='
    skip_bws();
    if (i < e.size() && e[i] == '"' ? !quoted() : !token()) return false;
  }
  return true;
}

}  // namespace

size_t parse_status_line(std::string_view s, int* status, Framing* framing, std::string* error) {
  // "HTTP/" DIGIT "." DIGIT SP 3DIGIT SP reason CRLF
  if (s.size() < 13) return 0;
  if (s.substr(0, 5) != "HTTP/" || !is_digit(s[5]) || s[6] != '.' || !is_digit(s[7])) {
    return fail(error, "bad HTTP version");
  }
  const int version = (s[5] - '0') * 10 + (s[7] - '0');
  if ((version != 10 && version != 11) || s[8] != ' ') return fail(error, "bad HTTP version");
  if (!is_digit(s[9]) || !is_digit(s[10]) || !is_digit(s[11]) || s[12] != ' ') {
    return fail(error, "bad status code");
  }
  size_t i = 13;
  while (i < s.size() && is_text(s[i])) ++i;
  if (i + 1 >= s.size()) return 0;
  if (s[i] != '\r' || s[i + 1] != '\n') return fail(error, "bad reason phrase");
  *status = (s[9] - '0') * 100 + (s[10] - '0') * 10 + (s[11] - '0');
  framing->http11 = version == 11;
  return i + 2;
}

size_t parse_fields(std::string_view s, Framing* framing, std::string* error) {
  std::string folded;
  size_t p = 0;
  auto bad_value = [&](Piece r) { return r == Piece::kIncomplete ? 0 : fail(error, "bad header field value"); };
  for (;;) {
    if (s.size() - p < 2) return 0;
    if (s[p] == '\r') return s[p + 1] == '\n' ? p + 2 : fail(error, "bad line ending");
    const size_t name_start = p;
    p = skip_common_name_bytes(s, p);
    while (p < s.size() && is_token_char(s[p])) ++p;  // ':' is not a token byte
    if (p == s.size()) return 0;
    if (p == name_start || s[p] != ':') return fail(error, "bad header field name");
    const std::string_view name = s.substr(name_start, p - name_start);
    ++p;  // ':'
    std::string_view value;
    if (Piece r = value_piece(s, &p, &value); r != Piece::kOk) return bad_value(r);
    if (p == s.size()) return 0;  // a folded continuation may follow
    if (is_ows(s[p])) {
      // Obsolete line folding: the non-empty pieces joined by single spaces.
      folded.assign(value);
      while (p < s.size() && is_ows(s[p])) {
        std::string_view piece;
        if (Piece r = value_piece(s, &p, &piece); r != Piece::kOk) return bad_value(r);
        if (piece.empty()) continue;
        if (!folded.empty()) folded += ' ';
        folded.append(piece);
      }
      if (p == s.size()) return 0;
      value = folded;
    }
    if (!apply_field(name, value, framing, error)) return 0;
  }
}

size_t parse_head(std::string_view s, int* status, Framing* framing, std::string* error) {
  const size_t line = parse_status_line(s, status, framing, error);
  if (line == 0) return 0;
  const size_t fields = parse_fields(s.substr(line), framing, error);
  return fields == 0 ? 0 : line + fields;
}

bool parse_chunk_line(std::string_view line, uint64_t* size, std::string* error) {
  // chunk-size [ chunk-ext ] CRLF, chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] )
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    const char l = static_cast<char>(c | 0x20);
    return (l >= 'a' && l <= 'f') ? l - 'a' + 10 : -1;
  };
  size_t i = 0;
  uint64_t v = 0;
  for (; i < line.size() && hex(line[i]) >= 0; ++i) {
    if (v > std::numeric_limits<uint64_t>::max() / 16) return fail(error, "bad chunk size");
    v = v * 16 + static_cast<uint64_t>(hex(line[i]));
  }
  if (i == 0) return fail(error, "bad chunk size");
  const std::string_view ext = line.substr(i);
  if (ext.size() < 2 || ext.substr(ext.size() - 2) != "\r\n") return fail(error, "bad chunk line ending");
  if (!valid_chunk_extensions(ext.substr(0, ext.size() - 2))) return fail(error, "bad chunk extension");
  *size = v;
  return true;
}

}  // namespace servebench::transport::http1
