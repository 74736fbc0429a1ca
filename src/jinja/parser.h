// Parser: tokens (lexer.h) → statement tree (ast.h), with jinja2's operator precedence:
// ternary < or < and < not < comparisons/in < + - < ~ < * / // % < ** < unary < postfix
// (attribute, item, slice, call) < filters and tests.
//
// Thread safety: pure function.
#pragma once

#include <vector>

#include "jinja/ast.h"
#include "jinja/lexer.h"

namespace servebench::jinja {

// Throws TemplateError naming the line of the first syntax error.
Body parse_template(const std::vector<Token>& tokens);

}  // namespace servebench::jinja
