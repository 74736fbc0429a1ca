#include "tokenizer/unicode.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
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
bool is_newer_than_pcre2(char32_t c);
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

// ---- Regex -------------------------------------------------------------------------------

namespace {
struct ThreadMatchState {
  pcre2_match_data* data = nullptr;
  pcre2_jit_stack* stack = nullptr;
  pcre2_match_context* context = nullptr;
  ThreadMatchState() {
    data = pcre2_match_data_create(16, nullptr);
    stack = pcre2_jit_stack_create(64 * 1024, 8 * 1024 * 1024, nullptr);
    context = pcre2_match_context_create(nullptr);
    pcre2_jit_stack_assign(context, nullptr, stack);
  }
  ~ThreadMatchState() {
    pcre2_match_context_free(context);
    pcre2_jit_stack_free(stack);
    pcre2_match_data_free(data);
  }
};
ThreadMatchState& match_state() {
  thread_local ThreadMatchState state;
  return state;
}
}  // namespace

namespace {

// Oniguruma's \s is exactly Unicode White_Space; PCRE2's also matches U+180E (via \h). Spell it
// out so both engines agree. Inside a class the list is inlined; \S outside a class is negated.
std::string rewrite_whitespace_class(std::string_view p) {
  static constexpr std::string_view kSpaces =
      "\\t\\n\\x0B\\f\\r\\x20\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}";
  std::string out;
  out.reserve(p.size() + 64);
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char n = p[i + 1];
      if (n == 's') {
        if (in_class) {
          out += kSpaces;
        } else {
          out += '[';
          out += kSpaces;
          out += ']';
        }
      } else if (n == 'S' && !in_class) {
        out += "[^";
        out += kSpaces;
        out += ']';
      } else {
        out += c;
        out += n;
      }
      ++i;
      continue;
    }
    if (c == '[' && !in_class) {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];  // a leading ']' is literal
      continue;
    }
    if (c == ']' && in_class) in_class = false;
    out += c;
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<const Regex>> Regex::compile(std::string_view original) {
  std::string rewritten = rewrite_whitespace_class(original);
  std::string_view pattern = rewritten;
  int err = 0;
  PCRE2_SIZE err_off = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP | PCRE2_NO_UTF_CHECK, &err, &err_off,
                                   nullptr);
  if (!code) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(err, buf, sizeof(buf));
    return make_error(ErrorCode::kUnsupported,
                      "regex '" + std::string(original) + "' does not compile (" +
                          reinterpret_cast<char*>(buf) + " at offset " + std::to_string(err_off) +
                          ")");
  }
  std::shared_ptr<Regex> r(new Regex());
  r->code_ = code;
  r->jit_ = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
  r->pattern_ = std::string(original);
  return std::shared_ptr<const Regex>(std::move(r));
}

Result<std::shared_ptr<const Regex>> Regex::literal(std::string_view text) {
  std::string p = "\\Q";
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 2) == "\\E") {
      p += "\\E\\\\E\\Q";
      ++i;
    } else {
      p += text[i];
    }
  }
  p += "\\E";
  return compile(p);
}

Regex::~Regex() { pcre2_code_free(static_cast<pcre2_code*>(code_)); }

namespace {

// PCRE2 10.42 has Unicode 14 tables; HF's Oniguruma knows newer characters. Such a character is
// matched through a stand-in of the same general category and UTF-8 length that PCRE2 knows, so
// every \p{..} class sees the category HF sees and offsets stay unchanged. The categories HF
// gives were measured with tokenizers@0.23.2 (scripts/tokenizer/make_unicode_table.js).
class NewCharTable {
 public:
  NewCharTable() {
    struct Range {
      char32_t first, last;
      int category;
    };
    static constexpr Range kHfRanges[] = {
#include "tokenizer/hf_unicode_table.inc"
    };
    for (const Range& r : kHfRanges) {
      for (char32_t cp = r.first; cp <= r.last; ++cp) {
        std::string enc;
        append_utf8(&enc, cp);
        char32_t stand_in = stand_in_for(r.category, enc.size());
        if (stand_in) map_.emplace_back(cp, stand_in);
      }
    }
    std::sort(map_.begin(), map_.end());
    if (!map_.empty()) min_cp_ = map_.front().first;
  }
  // 0 when cp needs no stand-in.
  char32_t stand_in(char32_t cp) const {
    if (cp < min_cp_) return 0;
    auto it = std::lower_bound(map_.begin(), map_.end(), std::make_pair(cp, char32_t{0}));
    return it != map_.end() && it->first == cp ? it->second : 0;
  }
  char32_t min_cp() const { return min_cp_; }

 private:
  static char32_t stand_in_for(int cat, size_t len) {
    bool four = len == 4;
    switch (cat) {
      case UTF8PROC_CATEGORY_LU: return four ? 0x1D400 : 0x1E00;
      case UTF8PROC_CATEGORY_LL: return four ? 0x1D41A : 0x1D00;
      case UTF8PROC_CATEGORY_LT: return four ? 0 : 0x1F88;
      case UTF8PROC_CATEGORY_LM: return four ? 0x16F93 : 0x1D2C;
      case UTF8PROC_CATEGORY_LO: return four ? 0x20000 : 0x4E00;
      case UTF8PROC_CATEGORY_MN: return four ? 0x101FD : 0x0900;
      case UTF8PROC_CATEGORY_MC: return four ? 0x11000 : 0x0903;
      case UTF8PROC_CATEGORY_ME: return four ? 0 : 0x20DD;
      case UTF8PROC_CATEGORY_ND: return four ? 0x104A0 : 0x0966;
      case UTF8PROC_CATEGORY_NL: return four ? 0x10140 : 0x2160;
      case UTF8PROC_CATEGORY_NO: return four ? 0x10107 : 0x2070;
      case UTF8PROC_CATEGORY_PC: return four ? 0 : 0x203F;
      case UTF8PROC_CATEGORY_PD: return four ? 0x10EAD : 0x2010;
      case UTF8PROC_CATEGORY_PS: return four ? 0 : 0x2045;
      case UTF8PROC_CATEGORY_PE: return four ? 0 : 0x2046;
      case UTF8PROC_CATEGORY_PI: return four ? 0 : 0x2018;
      case UTF8PROC_CATEGORY_PF: return four ? 0 : 0x2019;
      case UTF8PROC_CATEGORY_PO: return four ? 0x10100 : 0x2020;
      case UTF8PROC_CATEGORY_SM: return four ? 0x1D6C1 : 0x2190;
      case UTF8PROC_CATEGORY_SC: return four ? 0x1E2FF : 0x20AC;
      case UTF8PROC_CATEGORY_SK: return four ? 0x1F3FB : 0x309B;
      case UTF8PROC_CATEGORY_SO: return four ? 0x1D100 : 0x2100;
      case UTF8PROC_CATEGORY_CF: return four ? 0xE0001 : 0x200B;
      default: return 0;
    }
  }
  std::vector<std::pair<char32_t, char32_t>> map_;
  char32_t min_cp_ = 0x110000;
};

const NewCharTable& new_chars() {
  static const NewCharTable table;
  return table;
}

// HF's character-class tables (Rust crates) predate Unicode 15 for categories.
bool is_newer_than_pcre2(char32_t c) { return c >= 0x800 && new_chars().stand_in(c) != 0; }

// Returns a copy of text with stand-ins, or false when none is needed.
bool substitute_new_chars(std::string_view text, std::string* shadow) {
  const NewCharTable& t = new_chars();
  size_t i = 0;
  for (; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) >= 0xE0) break;
  }
  if (i == text.size()) return false;
  bool any = false;
  for (size_t p = 0; p < text.size();) {
    unsigned char b = static_cast<unsigned char>(text[p]);
    if (b < 0xE0) {
      p += utf8_len(b);
      continue;
    }
    size_t s = p;
    char32_t cp = next_code_point(text, &p);
    char32_t r = t.stand_in(cp);
    if (!r) continue;
    if (!any) {
      shadow->assign(text);
      any = true;
    }
    std::string enc;
    append_utf8(&enc, r);
    if (enc.size() == p - s) shadow->replace(s, enc.size(), enc);
  }
  return any;
}

}  // namespace

void Regex::find_all(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const {
  thread_local std::string shadow;
  if (substitute_new_chars(text, &shadow)) text = shadow;
  auto* code = static_cast<pcre2_code*>(code_);
  auto& st = match_state();
  auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t start = 0;
  while (start < text.size()) {
    int rc = jit_ ? pcre2_jit_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK, st.data,
                                    st.context)
                  : -1;
    if (!jit_ || rc == PCRE2_ERROR_JIT_STACKLIMIT) {
      rc = pcre2_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK, st.data, nullptr);
    }
    if (rc < 0) break;
    PCRE2_SIZE* ov = pcre2_get_ovector_pointer(st.data);
    size_t s = ov[0], e = ov[1];
    if (e == s) {
      // Empty match: step over one character, as HF's onig iterator does.
      if (s >= text.size()) break;
      start = s + utf8_len(static_cast<unsigned char>(text[s]));
      continue;
    }
    out->emplace_back(s, e);
    start = e;
  }
}

}  // namespace servebench::tokenizer
