// Expressions of the Jinja subset (expr_parser.h).
#include "jinja/expr_parser.h"

#include <set>

namespace servebench::jinja::detail {

ExprPtr ExprParser::parse_tuple_or_expression() {
  int line = peek().line;
  ExprPtr first = parse_expression();
  if (!is_op(",")) return first;
  auto t = make_expr(ExprType::kTuple, line);
  t->children.push_back(std::move(first));
  while (accept_op(",")) t->children.push_back(parse_expression());
  return t;
}

ExprPtr ExprParser::parse_expression() {
  DepthGuard guard(depth_, peek().line);
  ExprPtr expr = parse_or();
  while (is_name("if")) {
    int line = next().line;
    auto c = make_expr(ExprType::kCond, line);
    c->children.push_back(std::move(expr));
    c->children.push_back(parse_or());
    c->children.push_back(accept_name("else") ? parse_expression() : nullptr);
    expr = std::move(c);
  }
  return expr;
}

// An expression without a ternary (for loops' iterable and filter).
ExprPtr ExprParser::parse_condless() { return parse_or(); }

ExprPtr ExprParser::parse_or() {
  ExprPtr left = parse_and();
  while (is_name("or")) {
    int line = next().line;
    left = binary("or", std::move(left), parse_and(), line);
  }
  return left;
}

ExprPtr ExprParser::parse_and() {
  ExprPtr left = parse_not();
  while (is_name("and")) {
    int line = next().line;
    left = binary("and", std::move(left), parse_not(), line);
  }
  return left;
}

ExprPtr ExprParser::parse_not() {
  DepthGuard guard(depth_, peek().line);
  if (is_name("not")) {
    int line = next().line;
    auto e = make_expr(ExprType::kUnary, line, "not");
    e->children.push_back(parse_not());
    return e;
  }
  return parse_compare();
}

ExprPtr ExprParser::parse_compare() {
  ExprPtr left = parse_math1();
  while (true) {
    int line = peek().line;
    std::string op;
    if (peek().type == Tok::kOp &&
        (peek().text == "==" || peek().text == "!=" || peek().text == "<" ||
         peek().text == "<=" || peek().text == ">" || peek().text == ">=")) {
      op = next().text;
    } else if (is_name("in")) {
      next();
      op = "in";
    } else if (is_name("not") && is_name("in", 1)) {
      next();
      next();
      op = "not in";
    } else {
      return left;
    }
    left = binary(op, std::move(left), parse_math1(), line);
  }
}

ExprPtr ExprParser::parse_math1() {
  ExprPtr left = parse_concat();
  while (is_op("+") || is_op("-")) {
    const Token& op = next();
    left = binary(op.text, std::move(left), parse_concat(), op.line);
  }
  return left;
}

ExprPtr ExprParser::parse_concat() {
  ExprPtr left = parse_math2();
  while (is_op("~")) {
    int line = next().line;
    left = binary("~", std::move(left), parse_math2(), line);
  }
  return left;
}

ExprPtr ExprParser::parse_math2() {
  ExprPtr left = parse_pow();
  while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
    const Token& op = next();
    left = binary(op.text, std::move(left), parse_pow(), op.line);
  }
  return left;
}

ExprPtr ExprParser::parse_pow() {
  ExprPtr left = parse_unary(true);
  while (is_op("**")) {
    int line = next().line;
    left = binary("**", std::move(left), parse_unary(true), line);
  }
  return left;
}

ExprPtr ExprParser::parse_unary(bool with_filter) {
  DepthGuard guard(depth_, peek().line);
  ExprPtr node;
  if (is_op("-") || is_op("+")) {
    const Token& op = next();
    node = make_expr(ExprType::kUnary, op.line, op.text);
    node->children.push_back(parse_unary(false));
  } else {
    node = parse_primary();
  }
  node = parse_postfix(std::move(node));
  if (with_filter) node = parse_filter_chain(std::move(node));
  return node;
}

ExprPtr ExprParser::parse_primary() {
  const Token& tok = peek();
  int line = tok.line;
  if (tok.type == Tok::kName) {
    next();
    auto e = make_expr(ExprType::kLiteral, line);
    const std::string& n = tok.text;
    if (n == "true" || n == "True") {
      e->literal = Value::boolean(true);
    } else if (n == "false" || n == "False") {
      e->literal = Value::boolean(false);
    } else if (n == "none" || n == "None") {
      e->literal = Value::none();
    } else {
      e->type = ExprType::kName;
      e->name = n;
    }
    return e;
  }
  if (tok.type == Tok::kString) {
    std::string s;
    while (peek().type == Tok::kString) s += next().text;  // adjacent literals concatenate
    auto e = make_expr(ExprType::kLiteral, line);
    e->literal = Value::string(std::move(s));
    return e;
  }
  if (tok.type == Tok::kInt || tok.type == Tok::kFloat) {
    next();
    auto e = make_expr(ExprType::kLiteral, line);
    e->literal = tok.type == Tok::kInt ? Value::integer(std::stoll(tok.text))
                                       : Value::real(std::stod(tok.text));
    return e;
  }
  if (accept_op("(")) {
    if (accept_op(")")) return make_expr(ExprType::kTuple, line);
    ExprPtr first = parse_expression();
    if (accept_op(")")) return first;
    auto t = make_expr(ExprType::kTuple, line);
    t->children.push_back(std::move(first));
    while (accept_op(",")) {
      if (is_op(")")) break;
      t->children.push_back(parse_expression());
    }
    expect_op(")");
    return t;
  }
  if (accept_op("[")) {
    auto l = make_expr(ExprType::kList, line);
    while (!accept_op("]")) {
      l->children.push_back(parse_expression());
      if (!is_op("]")) expect_op(",");
    }
    return l;
  }
  if (accept_op("{")) {
    auto d = make_expr(ExprType::kDict, line);
    while (!accept_op("}")) {
      d->children.push_back(parse_expression());
      expect_op(":");
      d->children.push_back(parse_expression());
      if (!is_op("}")) expect_op(",");
    }
    return d;
  }
  fail("unexpected '" + (tok.text.empty() ? std::string("end of tag") : tok.text) + "'");
}

ExprPtr ExprParser::parse_postfix(ExprPtr node) {
  while (true) {
    int line = peek().line;
    if (accept_op(".")) {
      auto a = make_expr(ExprType::kAttr, line);
      a->children.push_back(std::move(node));
      if (peek().type == Tok::kInt) {
        a->type = ExprType::kItem;
        auto idx = make_expr(ExprType::kLiteral, line);
        idx->literal = Value::integer(std::stoll(next().text));
        a->children.push_back(std::move(idx));
      } else {
        a->name = expect_name();
      }
      node = std::move(a);
    } else if (accept_op("[")) {
      node = parse_subscript(std::move(node), line);
    } else if (is_op("(")) {
      node = parse_call(std::move(node));
    } else {
      return node;
    }
  }
}

ExprPtr ExprParser::parse_subscript(ExprPtr node, int line) {
  ExprPtr parts[3];
  int idx = 0;
  bool slice = false;
  while (!is_op("]")) {
    if (accept_op(":")) {
      slice = true;
      if (++idx > 2) fail("too many ':' in slice");
      continue;
    }
    parts[idx] = parse_expression();
  }
  expect_op("]");
  auto e = make_expr(slice ? ExprType::kSlice : ExprType::kItem, line);
  e->children.push_back(std::move(node));
  if (!slice) {
    if (!parts[0]) fail("empty subscript");
    e->children.push_back(std::move(parts[0]));
  } else {
    for (auto& p : parts) e->children.push_back(std::move(p));
  }
  return e;
}

void ExprParser::parse_args(Expr& call) {
  expect_op("(");
  while (!accept_op(")")) {
    if (peek().type == Tok::kName && is_op("=", 1)) {
      std::string key = next().text;
      next();
      call.kwargs.emplace_back(key, parse_expression());
    } else {
      call.children.push_back(parse_expression());
    }
    if (!is_op(")")) expect_op(",");
  }
}

ExprPtr ExprParser::parse_call(ExprPtr callee) {
  auto c = make_expr(ExprType::kCall, peek().line);
  c->children.push_back(std::move(callee));
  parse_args(*c);
  return c;
}

ExprPtr ExprParser::parse_filters(ExprPtr node) { return parse_filter_chain(std::move(node)); }

ExprPtr ExprParser::parse_filter_chain(ExprPtr node) {
  while (true) {
    if (accept_op("|")) {
      auto f = make_expr(ExprType::kFilter, peek().line);
      f->name = expect_name();
      while (accept_op(".")) f->name += "." + expect_name();
      f->children.push_back(std::move(node));
      if (is_op("(")) parse_args(*f);
      node = std::move(f);
    } else if (is_name("is")) {
      node = parse_test(std::move(node));
    } else if (is_op("(")) {
      node = parse_call(std::move(node));
    } else {
      return node;
    }
  }
}

ExprPtr ExprParser::parse_test(ExprPtr node) {
  auto t = make_expr(ExprType::kTest, next().line);
  t->negated = accept_name("not");
  t->name = expect_name();
  t->children.push_back(std::move(node));
  if (is_op("(")) {
    parse_args(*t);
  } else if (starts_test_argument()) {
    t->children.push_back(parse_postfix(parse_primary()));
  }
  return t;
}

bool ExprParser::starts_test_argument() const {
  const Token& tok = peek();
  if (tok.type == Tok::kString || tok.type == Tok::kInt || tok.type == Tok::kFloat) return true;
  if (tok.type == Tok::kOp) return tok.text == "[" || tok.text == "{";
  if (tok.type != Tok::kName) return false;
  static const std::set<std::string> kStop = {"else", "or", "and", "if", "in", "not", "is"};
  return kStop.count(tok.text) == 0;
}

}  // namespace servebench::jinja::detail
