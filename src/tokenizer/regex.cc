// Regex: PCRE2 (UTF, UCP, JIT) with HF's whitespace class and stand-ins for characters newer
// than PCRE2's Unicode tables, so patterns match as HF's Oniguruma does (see unicode.h).
#include "tokenizer/unicode.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>

namespace servebench::tokenizer {
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

// HF's character-class tables (Rust crates) predate Unicode 15 for categories.
bool is_newer_than_pcre2(char32_t c) { return c >= 0x800 && new_chars().stand_in(c) != 0; }

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
