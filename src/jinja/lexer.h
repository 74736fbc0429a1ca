// Lexer: template source → tokens, with jinja2's whitespace rules as Hugging Face configures
// them (trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False): "{%-"/"-%}" and
// "{{-"/"-}}" strip all whitespace on that side, a block or comment tag alone on its line
// takes the line's indentation and its newline with it, and one trailing newline of the source
// is dropped. Comments ({# #}) produce no tokens.
//
// Thread safety: pure function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace servebench::jinja {

enum class Tok {
  kText,        // literal output
  kVarBegin,    // {{
  kVarEnd,      // }}
  kBlockBegin,  // {%
  kBlockEnd,    // %}
  kName,
  kString,      // value unescaped
  kInt,
  kFloat,
  kOp,          // ( ) [ ] { } . , : | ~ + - * / // % ** = == != < <= > >=
  kEof,
};

struct Token {
  Tok type = Tok::kEof;
  std::string text;
  int line = 1;
};

// Throws TemplateError (value.h) on an unterminated tag, string or comment.
std::vector<Token> lex_template(std::string_view source);

}  // namespace servebench::jinja
