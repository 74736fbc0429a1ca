#include "jinja/lexer.h"

#include <algorithm>
#include <cctype>

#include "jinja/value.h"

namespace servebench::jinja {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

int count_lines(std::string_view s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

class Lexer {
 public:
  explicit Lexer(std::string source) : src_(std::move(source)) {}

  std::vector<Token> run() {
    size_t pos = 0;
    bool strip_next = false;  // the previous tag ended with "-"
    bool trim_next = false;   // the previous tag was a block or comment (trim_blocks)
    while (pos < src_.size()) {
      size_t open = find_tag(pos);
      std::string text = src_.substr(pos, open - pos);
      int text_line = line_;
      line_ += count_lines(text);
      bool line_starting = pos == 0;
      if (strip_next) {
        size_t k = 0;
        while (k < text.size() && is_space(text[k])) ++k;
        line_starting = k > 0 && text[k - 1] == '\n';
        text.erase(0, k);
      } else if (trim_next && !text.empty() && text[0] == '\n') {
        text.erase(0, 1);
        line_starting = true;
      }
      strip_next = trim_next = false;
      if (open == src_.size()) {
        emit_text(std::move(text), text_line);
        break;
      }
      char kind = src_[open + 1];
      size_t body = open + 2;
      bool minus = body < src_.size() && src_[body] == '-';
      bool plus = body < src_.size() && src_[body] == '+';
      if (minus || plus) ++body;
      if (minus) {
        while (!text.empty() && is_space(text.back())) text.pop_back();
      } else if (!plus && kind != '{') {
        lstrip_line(text, line_starting);
      }
      emit_text(std::move(text), text_line);
      if (kind == '#') {
        size_t close = src_.find("#}", body);
        if (close == std::string::npos) throw TemplateError(line_, "unterminated comment");
        strip_next = close > body && src_[close - 1] == '-';
        trim_next = true;
        line_ += count_lines(std::string_view(src_).substr(open, close + 2 - open));
        pos = close + 2;
        continue;
      }
      tokens_.push_back({kind == '{' ? Tok::kVarBegin : Tok::kBlockBegin, "", line_});
      pos = lex_tag(body, kind == '{' ? '}' : '%', strip_next);
      tokens_.push_back({kind == '{' ? Tok::kVarEnd : Tok::kBlockEnd, "", line_});
      trim_next = kind == '%';
      if (kind == '%' && is_raw_start()) pos = lex_raw(pos, strip_next, trim_next);
    }
    tokens_.push_back({Tok::kEof, "", line_});
    return std::move(tokens_);
  }

 private:
  size_t find_tag(size_t from) const {
    for (size_t k = from; k + 1 < src_.size(); ++k) {
      if (src_[k] == '{' && (src_[k + 1] == '{' || src_[k + 1] == '%' || src_[k + 1] == '#')) {
        return k;
      }
    }
    return src_.size();
  }

  // lstrip_blocks: drop the spaces and tabs between the line start and a block tag when nothing
  // else precedes it on the line.
  void lstrip_line(std::string& text, bool line_starting) const {
    size_t l_pos = text.rfind('\n');
    l_pos = l_pos == std::string::npos ? 0 : l_pos + 1;
    if (l_pos == 0 && !line_starting) return;
    if (text.find_first_not_of(" \t", l_pos) == std::string::npos) text.erase(l_pos);
  }

  void emit_text(std::string text, int line) {
    if (!text.empty()) tokens_.push_back({Tok::kText, std::move(text), line});
  }

  bool is_raw_start() const {
    size_t n = tokens_.size();
    return n >= 3 && tokens_[n - 3].type == Tok::kBlockBegin && tokens_[n - 2].type == Tok::kName &&
           tokens_[n - 2].text == "raw" && tokens_[n - 1].type == Tok::kBlockEnd;
  }

  // {% raw %}...{% endraw %}: the body is text.
  size_t lex_raw(size_t pos, bool& strip_next, bool& trim_next) {
    tokens_.resize(tokens_.size() - 3);
    size_t k = pos;
    while (true) {
      k = src_.find("{%", k);
      if (k == std::string::npos) throw TemplateError(line_, "unterminated raw block");
      size_t j = k + 2;
      if (j < src_.size() && (src_[j] == '-' || src_[j] == '+')) ++j;
      while (j < src_.size() && is_space(src_[j])) ++j;
      if (src_.compare(j, 6, "endraw") == 0) break;
      k += 2;
    }
    std::string text = src_.substr(pos, k - pos);
    if (strip_next) text.erase(0, std::min(text.size(), text.find_first_not_of(" \t\r\n")));
    if (!strip_next && trim_next && !text.empty() && text[0] == '\n') text.erase(0, 1);
    if (src_[k + 2] == '-') {
      while (!text.empty() && is_space(text.back())) text.pop_back();
    }
    emit_text(text, line_);
    size_t close = src_.find("%}", k);
    if (close == std::string::npos) throw TemplateError(line_, "unterminated raw block");
    line_ += count_lines(std::string_view(src_).substr(pos, close - pos));
    strip_next = src_[close - 1] == '-';
    trim_next = true;
    return close + 2;
  }

  // Tokens of one tag's body; returns the position after the closing "}}" or "%}".
  size_t lex_tag(size_t pos, char close_char, bool& strip_next) {
    while (true) {
      if (pos >= src_.size()) throw TemplateError(line_, "unterminated tag");
      char c = src_[pos];
      if (c == '\n') ++line_;
      if (is_space(c)) {
        ++pos;
        continue;
      }
      if (c == '-' && pos + 2 < src_.size() && src_[pos + 1] == close_char && src_[pos + 2] == '}') {
        strip_next = true;
        return pos + 3;
      }
      if (c == close_char && pos + 1 < src_.size() && src_[pos + 1] == '}') {
        strip_next = false;
        return pos + 2;
      }
      pos = lex_one(pos);
    }
  }

  size_t lex_one(size_t pos) {
    char c = src_[pos];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t e = pos;
      while (e < src_.size() && (std::isalnum(static_cast<unsigned char>(src_[e])) || src_[e] == '_')) ++e;
      tokens_.push_back({Tok::kName, src_.substr(pos, e - pos), line_});
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return lex_number(pos);
    if (c == '\'' || c == '"') return lex_string(pos);
    static const char* kOps[] = {"//", "**", "==", "!=", "<=", ">=", "(", ")", "[", "]", "{",
                                 "}",  ".",  ",",  ":",  "|",  "~",  "+", "-", "*", "/", "%",
                                 "=",  "<",  ">"};
    for (const char* op : kOps) {
      size_t n = std::char_traits<char>::length(op);
      if (src_.compare(pos, n, op) == 0) {
        tokens_.push_back({Tok::kOp, op, line_});
        return pos + n;
      }
    }
    throw TemplateError(line_, std::string("unexpected character '") + c + "'");
  }

  size_t lex_number(size_t pos) {
    size_t e = pos;
    bool is_float = false;
    while (e < src_.size() && (std::isdigit(static_cast<unsigned char>(src_[e])) || src_[e] == '_')) ++e;
    if (e + 1 < src_.size() && src_[e] == '.' && std::isdigit(static_cast<unsigned char>(src_[e + 1]))) {
      is_float = true;
      ++e;
      while (e < src_.size() && std::isdigit(static_cast<unsigned char>(src_[e]))) ++e;
    }
    std::string text = src_.substr(pos, e - pos);
    text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
    tokens_.push_back({is_float ? Tok::kFloat : Tok::kInt, text, line_});
    return e;
  }

  size_t lex_string(size_t pos) {
    char q = src_[pos];
    std::string out;
    size_t k = pos + 1;
    while (true) {
      if (k >= src_.size()) throw TemplateError(line_, "unterminated string");
      char c = src_[k];
      if (c == q) break;
      if (c == '\n') ++line_;
      if (c == '\\' && k + 1 < src_.size()) {
        char n = src_[++k];
        switch (n) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case '\\': out += '\\'; break;
          case '\'': out += '\''; break;
          case '"': out += '"'; break;
          case '\n': ++line_; break;
          default: out += '\\'; out += n;
        }
        ++k;
        continue;
      }
      out += c;
      ++k;
    }
    tokens_.push_back({Tok::kString, std::move(out), line_});
    return k + 1;
  }

  std::string src_;
  std::vector<Token> tokens_;
  int line_ = 1;
};

std::string normalize_newlines(std::string_view source) {
  std::string s;
  s.reserve(source.size());
  for (size_t k = 0; k < source.size(); ++k) {
    if (source[k] == '\r') {
      s += '\n';
      if (k + 1 < source.size() && source[k + 1] == '\n') ++k;
    } else {
      s += source[k];
    }
  }
  if (!s.empty() && s.back() == '\n') s.pop_back();  // keep_trailing_newline=False
  return s;
}

}  // namespace

std::vector<Token> lex_template(std::string_view source) {
  return Lexer(normalize_newlines(source)).run();
}

}  // namespace servebench::jinja
