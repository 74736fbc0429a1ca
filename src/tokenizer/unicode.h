// Unicode helpers shared by the tokenizer pipeline: UTF-8 decoding/encoding, the character
// classes Hugging Face `tokenizers` uses (Rust's char::is_whitespace, is_numeric, ...), the
// GPT-2 byte-level alphabet, and a PCRE2 regex wrapper with Oniguruma-like iteration.
//
// Thread safety: all functions are pure; Regex is immutable after construction and matches
// from any number of threads (match data and JIT stacks are per thread).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace servebench::tokenizer {

// Decodes the code point at text[*pos] and advances *pos. REQUIRES: valid UTF-8.
char32_t next_code_point(std::string_view text, size_t* pos);
// Byte length of the UTF-8 sequence starting with lead byte `b` (1 for invalid leads).
inline size_t utf8_len(unsigned char b) {
  return b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
}
void append_utf8(std::string* out, char32_t cp);
// Returns text with every invalid UTF-8 sequence replaced by U+FFFD (as a JavaScript or Python
// caller of HF tokenizers would have passed it). `*changed` says whether anything was replaced.
std::string sanitize_utf8(std::string_view text, bool* changed);
bool is_valid_utf8(std::string_view text);

// Character classes with the definitions HF tokenizers (Rust) uses.
bool is_rust_whitespace(char32_t c);   // White_Space property
bool is_rust_numeric(char32_t c);      // Nd | Nl | No
bool is_rust_alphanumeric(char32_t c);  // L* | N* (approximation of Alphabetic | numeric)
bool is_punctuation(char32_t c);       // HF's is_punc (ASCII punctuation or P*)
bool is_hf_control(char32_t c);        // removed by BertNormalizer clean_text
bool is_hf_bert_space(char32_t c);     // mapped to ' ' by clean_text
bool is_mark(char32_t c);              // what HF's StripAccents normalizer removes
bool is_bert_mark(char32_t c);         // what BertNormalizer's strip_accents removes
bool is_other(char32_t c);             // = is_hf_control
bool is_cjk_ideograph(char32_t c);     // BERT's "Chinese character" ranges
std::string to_lower_rust(std::string_view text);  // char::to_lowercase per char

// Unicode normalization forms via utf8proc. REQUIRES: valid UTF-8.
enum class NormalForm { kNfc, kNfd, kNfkc, kNfkd };
std::string normalize_form(std::string_view text, NormalForm form);

// True for a character PCRE2's (older) Unicode tables lack but HF's know; such characters are
// matched through a stand-in (regex.cc) and normalized as opaque starters.
bool is_newer_than_pcre2(char32_t c);

// GPT-2 byte-level alphabet: byte -> code point and back (-1 for code points outside it).
const std::array<char32_t, 256>& byte_to_unicode();
int unicode_to_byte(char32_t cp);
// Maps a byte-level string ("Ġhello") to raw bytes (" hello"); false if a code point is not in
// the byte-level alphabet.
bool byte_level_to_bytes(std::string_view text, std::string* out);

// A compiled PCRE2 pattern (UTF, UCP, JIT when available).
class Regex {
 public:
  static Result<std::shared_ptr<const Regex>> compile(std::string_view pattern);
  // A literal (escaped) pattern.
  static Result<std::shared_ptr<const Regex>> literal(std::string_view text);
  ~Regex();
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;

  // Appends the [start, end) byte ranges of successive non-overlapping matches in `text`.
  // An empty match advances the search by one character and is not reported.
  void find_all(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const;
  const std::string& pattern() const { return pattern_; }

 private:
  Regex() = default;
  void* code_ = nullptr;  // pcre2_code_8*
  bool jit_ = false;
  std::string pattern_;
};

}  // namespace servebench::tokenizer
