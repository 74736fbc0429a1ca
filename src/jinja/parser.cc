#include "jinja/parser.h"

#include <set>

namespace servebench::jinja {
namespace {

ExprPtr make_expr(ExprType type, int line, std::string name = {}) {
  auto e = std::make_unique<Expr>();
  e->type = type;
  e->line = line;
  e->name = std::move(name);
  return e;
}

ExprPtr binary(const std::string& op, ExprPtr a, ExprPtr b, int line) {
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

class Parser {
 public:
  explicit Parser(const std::vector<Token>& tokens) : t_(tokens) {}

  Body parse_all() {
    Body body = parse_body({});
    if (peek().type != Tok::kEof) fail("unexpected '" + peek().text + "'");
    return body;
  }

 private:
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

  // Statements until one of `ends` opens a block tag (the "{%" and the keyword are left unread).
  Body parse_body(const std::set<std::string>& ends) {
    Body body;
    while (true) {
      const Token& tok = peek();
      if (tok.type == Tok::kEof) {
        if (!ends.empty()) fail("unexpected end of template, expected '" + *ends.begin() + "'");
        return body;
      }
      if (tok.type == Tok::kText) {
        auto n = std::make_unique<Node>();
        n->type = NodeType::kText;
        n->line = tok.line;
        n->text = tok.text;
        body.push_back(std::move(n));
        next();
      } else if (tok.type == Tok::kVarBegin) {
        next();
        auto n = std::make_unique<Node>();
        n->type = NodeType::kOutput;
        n->line = tok.line;
        n->expr = parse_expression();
        expect(Tok::kVarEnd, "'}}'");
        body.push_back(std::move(n));
      } else if (tok.type == Tok::kBlockBegin) {
        if (peek(1).type == Tok::kName && ends.count(peek(1).text)) return body;
        next();
        body.push_back(parse_statement());
      } else {
        fail("unexpected token");
      }
    }
  }

  void end_tag() { expect(Tok::kBlockEnd, "'%}'"); }

  // Reads "{% keyword" of a closing or middle tag.
  std::string read_tag_keyword() {
    expect(Tok::kBlockBegin, "'{%'");
    return expect_name();
  }

  NodePtr parse_statement() {
    int line = peek().line;
    DepthGuard guard(depth_, line);
    std::string kw = expect_name();
    auto n = std::make_unique<Node>();
    n->line = line;
    if (kw == "if") return parse_if(std::move(n));
    if (kw == "for") return parse_for(std::move(n));
    if (kw == "set") return parse_set(std::move(n));
    if (kw == "macro") return parse_macro(std::move(n));
    if (kw == "call") return parse_call_block(std::move(n));
    if (kw == "filter") return parse_filter_block(std::move(n));
    if (kw == "break" || kw == "continue") {
      n->type = kw == "break" ? NodeType::kBreak : NodeType::kContinue;
      end_tag();
      return n;
    }
    if (kw == "generation") {
      n->type = NodeType::kScope;
      end_tag();
      n->body = parse_body({"endgeneration"});
      read_tag_keyword();
      end_tag();
      return n;
    }
    throw TemplateError(line, "unknown tag '" + kw + "'");
  }

  NodePtr parse_if(NodePtr n) {
    n->type = NodeType::kIf;
    ExprPtr cond = parse_expression();
    end_tag();
    while (true) {
      Body body = parse_body({"elif", "else", "endif"});
      n->branches.emplace_back(std::move(cond), std::move(body));
      std::string kw = read_tag_keyword();
      if (kw == "elif") {
        cond = parse_expression();
        end_tag();
        continue;
      }
      end_tag();
      if (kw == "else") {
        n->else_body = parse_body({"endif"});
        read_tag_keyword();
        end_tag();
      }
      return n;
    }
  }

  NodePtr parse_for(NodePtr n) {
    n->type = NodeType::kFor;
    n->targets.push_back(expect_name());
    while (accept_op(",")) n->targets.push_back(expect_name());
    if (!accept_name("in")) fail("expected 'in' in for");
    n->expr = parse_condless();
    if (accept_name("if")) n->filter = parse_condless();
    accept_name("recursive");
    end_tag();
    n->body = parse_body({"else", "endfor"});
    if (read_tag_keyword() == "else") {
      end_tag();
      n->else_body = parse_body({"endfor"});
      read_tag_keyword();
    }
    end_tag();
    return n;
  }

  NodePtr parse_set(NodePtr n) {
    n->type = NodeType::kSet;
    n->targets.push_back(expect_name());
    if (accept_op(".")) {
      n->attr = expect_name();
    } else {
      while (accept_op(",")) n->targets.push_back(expect_name());
    }
    if (accept_op("=")) {
      n->expr = parse_tuple_or_expression();
      end_tag();
      return n;
    }
    if (peek().type == Tok::kOp && peek().text == "|") {
      // {% set x | filter %}...{% endset %}: the filter applies to the block's output.
      auto holder = make_expr(ExprType::kLiteral, n->line);
      n->filter = parse_filters(std::move(holder));
    }
    end_tag();
    n->body = parse_body({"endset"});
    read_tag_keyword();
    end_tag();
    return n;
  }

  NodePtr parse_macro(NodePtr n) {
    n->type = NodeType::kMacro;
    n->text = expect_name();
    expect_op("(");
    while (!accept_op(")")) {
      std::string param = expect_name();
      ExprPtr def;
      if (accept_op("=")) def = parse_expression();
      n->params.emplace_back(param, std::move(def));
      if (!is_op(")")) expect_op(",");
    }
    end_tag();
    n->body = parse_body({"endmacro"});
    read_tag_keyword();
    if (peek().type == Tok::kName) next();
    end_tag();
    return n;
  }

  NodePtr parse_call_block(NodePtr n) {
    n->type = NodeType::kCallBlock;
    n->expr = parse_expression();
    end_tag();
    n->body = parse_body({"endcall"});
    read_tag_keyword();
    end_tag();
    return n;
  }

  NodePtr parse_filter_block(NodePtr n) {
    n->type = NodeType::kFilterBlock;
    auto holder = make_expr(ExprType::kLiteral, n->line);
    n->expr = parse_filter_chain(std::move(holder));
    end_tag();
    n->body = parse_body({"endfilter"});
    read_tag_keyword();
    end_tag();
    return n;
  }

  // Expressions.

  ExprPtr parse_tuple_or_expression() {
    int line = peek().line;
    ExprPtr first = parse_expression();
    if (!is_op(",")) return first;
    auto t = make_expr(ExprType::kTuple, line);
    t->children.push_back(std::move(first));
    while (accept_op(",")) t->children.push_back(parse_expression());
    return t;
  }

  ExprPtr parse_expression() {
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
  ExprPtr parse_condless() { return parse_or(); }

  ExprPtr parse_or() {
    ExprPtr left = parse_and();
    while (is_name("or")) {
      int line = next().line;
      left = binary("or", std::move(left), parse_and(), line);
    }
    return left;
  }

  ExprPtr parse_and() {
    ExprPtr left = parse_not();
    while (is_name("and")) {
      int line = next().line;
      left = binary("and", std::move(left), parse_not(), line);
    }
    return left;
  }

  ExprPtr parse_not() {
    DepthGuard guard(depth_, peek().line);
    if (is_name("not")) {
      int line = next().line;
      auto e = make_expr(ExprType::kUnary, line, "not");
      e->children.push_back(parse_not());
      return e;
    }
    return parse_compare();
  }

  ExprPtr parse_compare() {
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

  ExprPtr parse_math1() {
    ExprPtr left = parse_concat();
    while (is_op("+") || is_op("-")) {
      const Token& op = next();
      left = binary(op.text, std::move(left), parse_concat(), op.line);
    }
    return left;
  }

  ExprPtr parse_concat() {
    ExprPtr left = parse_math2();
    while (is_op("~")) {
      int line = next().line;
      left = binary("~", std::move(left), parse_math2(), line);
    }
    return left;
  }

  ExprPtr parse_math2() {
    ExprPtr left = parse_pow();
    while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
      const Token& op = next();
      left = binary(op.text, std::move(left), parse_pow(), op.line);
    }
    return left;
  }

  ExprPtr parse_pow() {
    ExprPtr left = parse_unary(true);
    while (is_op("**")) {
      int line = next().line;
      left = binary("**", std::move(left), parse_unary(true), line);
    }
    return left;
  }

  ExprPtr parse_unary(bool with_filter) {
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

  ExprPtr parse_primary() {
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

  ExprPtr parse_postfix(ExprPtr node) {
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

  ExprPtr parse_subscript(ExprPtr node, int line) {
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

  void parse_args(Expr& call) {
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

  ExprPtr parse_call(ExprPtr callee) {
    auto c = make_expr(ExprType::kCall, peek().line);
    c->children.push_back(std::move(callee));
    parse_args(*c);
    return c;
  }

  ExprPtr parse_filters(ExprPtr node) { return parse_filter_chain(std::move(node)); }

  ExprPtr parse_filter_chain(ExprPtr node) {
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

  ExprPtr parse_test(ExprPtr node) {
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

  bool starts_test_argument() const {
    const Token& tok = peek();
    if (tok.type == Tok::kString || tok.type == Tok::kInt || tok.type == Tok::kFloat) return true;
    if (tok.type == Tok::kOp) return tok.text == "[" || tok.text == "{";
    if (tok.type != Tok::kName) return false;
    static const std::set<std::string> kStop = {"else", "or", "and", "if", "in", "not", "is"};
    return kStop.count(tok.text) == 0;
  }

  const std::vector<Token>& t_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Body parse_template(const std::vector<Token>& tokens) { return Parser(tokens).parse_all(); }

}  // namespace servebench::jinja
