// The expression half of the Jinja parser (parser.cc parses statements on top of it):
// precedence climbing from ternaries down to primaries, filters, tests, calls and subscripts,
// with the token cursor both halves share. Internal to sb_jinja.
//
// Thread safety: one parser per parse; not shared.
#pragma once

#include <string>
#include <vector>

#include "jinja/parser.h"

namespace servebench::jinja::detail {

inline ExprPtr make_expr(ExprType type, int line, std::string name = {}) {
  auto e = std::make_unique<Expr>();
  e->type = type;
  e->line = line;
  e->name = std::move(name);
  return e;
}

inline ExprPtr binary(const std::string& op, ExprPtr a, ExprPtr b, int line) {
  auto e = make_expr(ExprType::kBinary, line, op);
  e->children.push_back(std::move(a));
  e->children.push_back(std::move(b));
  return e;
}

// Bounds the nesting of expressions, so hostile input fails instead of exhausting the stack.
struct DepthGuard {
  DepthGuard(int& depth, int line) : depth_(depth) {
    if (++depth_ > 200) throw TemplateError(line, "expression nested too deeply");
  }
  ~DepthGuard() { --depth_; }
  int& depth_;
};

class ExprParser {
 public:
  explicit ExprParser(const std::vector<Token>& tokens) : t_(tokens) {}

 protected:
  const Token& peek(size_t ahead = 0) const {
    size_t k = std::min(pos_ + ahead, t_.size() - 1);
    return t_[k];
  }
  const Token& next() {
    const Token& tok = peek();
    if (pos_ < t_.size() - 1) ++pos_;
    return tok;
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw TemplateError(peek().line, message);
  }
  bool is_op(const char* op, size_t ahead = 0) const {
    return peek(ahead).type == Tok::kOp && peek(ahead).text == op;
  }
  bool is_name(const char* name, size_t ahead = 0) const {
    return peek(ahead).type == Tok::kName && peek(ahead).text == name;
  }
  bool accept_op(const char* op) {
    if (!is_op(op)) return false;
    next();
    return true;
  }
  bool accept_name(const char* name) {
    if (!is_name(name)) return false;
    next();
    return true;
  }
  void expect_op(const char* op) {
    if (!accept_op(op)) fail(std::string("expected '") + op + "'");
  }
  void expect(Tok type, const char* what) {
    if (peek().type != type) fail(std::string("expected ") + what);
    next();
  }
  std::string expect_name() {
    if (peek().type != Tok::kName) fail("expected a name");
    return next().text;
  }


  // Expressions.
  ExprPtr parse_tuple_or_expression();
  ExprPtr parse_expression();
  ExprPtr parse_condless();
  ExprPtr parse_or();
  ExprPtr parse_and();
  ExprPtr parse_not();
  ExprPtr parse_compare();
  ExprPtr parse_math1();
  ExprPtr parse_concat();
  ExprPtr parse_math2();
  ExprPtr parse_pow();
  ExprPtr parse_unary(bool with_filter);
  ExprPtr parse_primary();
  ExprPtr parse_postfix(ExprPtr node);
  ExprPtr parse_subscript(ExprPtr node, int line);
  void parse_args(Expr& call);
  ExprPtr parse_call(ExprPtr callee);
  ExprPtr parse_filters(ExprPtr node);
  ExprPtr parse_filter_chain(ExprPtr node);
  ExprPtr parse_test(ExprPtr node);
  bool starts_test_argument() const;

  const std::vector<Token>& t_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace servebench::jinja::detail
