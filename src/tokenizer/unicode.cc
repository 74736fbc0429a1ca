#include "tokenizer/unicode.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>

namespace servebench::tokenizer {
namespace {
struct CodeRange {
  char32_t first, last;
};
#include "tokenizer/hf_char_tables.inc"

template <size_t N>
bool in_ranges(const CodeRange (&ranges)[N], char32_t c) {
  size_t lo = 0, hi = N;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (ranges[mid].last < c) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < N && ranges[lo].first <= c;
}
}  // namespace

bool is_hf_control(char32_t c) { return in_ranges(kHfControl, c); }
bool is_hf_bert_space(char32_t c) { return in_ranges(kHfSpace, c); }

char32_t next_code_point(std::string_view s, size_t* pos) {
  size_t i = *pos;
  unsigned char b = static_cast<unsigned char>(s[i]);
  size_t n = utf8_len(b);
  if (i + n > s.size()) n = 1;
  char32_t cp;
  switch (n) {
    case 1: cp = b; break;
    case 2: cp = ((b & 0x1F) << 6) | (s[i + 1] & 0x3F); break;
    case 3: cp = ((b & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F); break;
    default:
      cp = ((b & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) |
           (s[i + 3] & 0x3F);
  }
  *pos = i + n;
  return cp;
}

void append_utf8(std::string* out, char32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0 when invalid (overlong, surrogate, > 10FFFF).
size_t valid_seq_len(std::string_view s, size_t i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  auto cont = [&](size_t k) {
    return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b0 == 0xE0 && b1 < 0xA0) return 0;
    if (b0 == 0xED && b1 >= 0xA0) return 0;
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b0 == 0xF0 && b1 < 0x90) return 0;
    if (b0 == 0xF4 && b1 >= 0x90) return 0;
    return 4;
  }
  return 0;
}
}  // namespace

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t n = valid_seq_len(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string sanitize_utf8(std::string_view s, bool* changed) {
  *changed = false;
  if (is_valid_utf8(s)) return std::string(s);
  *changed = true;
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size();) {
    size_t n = valid_seq_len(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool is_rust_whitespace(char32_t c) {
  switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20: case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

bool is_rust_numeric(char32_t c) {
  if (c < 0x80) return c >= '0' && c <= '9';
  auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
  return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_NO;
}

bool is_rust_alphanumeric(char32_t c) {
  if (c < 0x80) return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(c));
  return (cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) ||
         (cat >= UTF8PROC_CATEGORY_ND && cat <= UTF8PROC_CATEGORY_NO);
}

// HF's own (measured) tables: its Rust crates predate utf8proc's Unicode 15 data.
bool is_punctuation(char32_t c) { return in_ranges(kHfPunct, c); }
bool is_mark(char32_t c) { return c >= 0x300 && in_ranges(kHfMark, c); }
bool is_bert_mark(char32_t c) { return c >= 0x300 && in_ranges(kHfBertMark, c); }
bool is_other(char32_t c) { return in_ranges(kHfControl, c); }

bool is_cjk_ideograph(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::string to_lower_rust(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t c = next_code_point(text, &i);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
    } else if (c == 0x130) {  // the one unconditional multi-char lowercase mapping
      out += "i\xCC\x87";
    } else {
      append_utf8(&out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
  }
  return out;
}

namespace {
std::string normalize_form_utf8proc(std::string_view text, NormalForm form);
}  // namespace

std::string normalize_form(std::string_view text, NormalForm form) {
  // Characters newer than HF's normalization tables (or whose mappings are) are starters without
  // decomposition there:
  // normalize the runs between them separately so utf8proc's newer combining classes cannot
  // reorder or compose across them.
  bool any_new = false;
  for (size_t i = 0; i < text.size() && !any_new;) {
    if (static_cast<unsigned char>(text[i]) < 0xE0) {
      i += utf8_len(static_cast<unsigned char>(text[i]));
      continue;
    }
    char32_t c = next_code_point(text, &i);
    any_new = is_newer_than_pcre2(c) || in_ranges(kHfNormOpaque, c);
  }
  if (!any_new) return normalize_form_utf8proc(text, form);
  std::string out;
  size_t run = 0;
  for (size_t i = 0; i < text.size();) {
    size_t s = i;
    char32_t c = next_code_point(text, &i);
    if (c >= 0x800 && (is_newer_than_pcre2(c) || in_ranges(kHfNormOpaque, c))) {
      out += normalize_form_utf8proc(text.substr(run, s - run), form);
      out.append(text.substr(s, i - s));
      run = i;
    }
  }
  out += normalize_form_utf8proc(text.substr(run), form);
  return out;
}

namespace {
std::string normalize_form_utf8proc(std::string_view text, NormalForm form) {
  bool ascii = true;
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return std::string(text);
  int opts = UTF8PROC_STABLE;
  switch (form) {
    case NormalForm::kNfc: opts |= UTF8PROC_COMPOSE; break;
    case NormalForm::kNfd: opts |= UTF8PROC_DECOMPOSE; break;
    case NormalForm::kNfkc: opts |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT; break;
    case NormalForm::kNfkd: opts |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT; break;
  }
  utf8proc_uint8_t* out = nullptr;
  auto n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                        static_cast<utf8proc_ssize_t>(text.size()), &out,
                        static_cast<utf8proc_option_t>(opts));
  if (n < 0) return std::string(text);
  std::string result(reinterpret_cast<char*>(out), static_cast<size_t>(n));
  std::free(out);
  return result;
}
}  // namespace

const std::array<char32_t, 256>& byte_to_unicode() {
  static const std::array<char32_t, 256> table = [] {
    std::array<char32_t, 256> t{};
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
      t[b] = printable ? static_cast<char32_t>(b) : next++;
    }
    return t;
  }();
  return table;
}

int unicode_to_byte(char32_t cp) {
  static const std::vector<int> inverse = [] {
    std::vector<int> inv(512, -1);
    const auto& t = byte_to_unicode();
    for (int b = 0; b < 256; ++b) inv[t[b]] = b;
    return inv;
  }();
  return cp < inverse.size() ? inverse[cp] : -1;
}

bool byte_level_to_bytes(std::string_view text, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size();) {
    int b = unicode_to_byte(next_code_point(text, &i));
    if (b < 0) return false;
    out->push_back(static_cast<char>(b));
  }
  return true;
}

}  // namespace servebench::tokenizer
