#include "jinja/parser.h"
#include "jinja/expr_parser.h"

#include <set>

namespace servebench::jinja {
namespace {

using detail::binary;
using detail::DepthGuard;
using detail::make_expr;

class Parser : public detail::ExprParser {
 public:
  using ExprParser::ExprParser;

  Body parse_all() {
    Body body = parse_body({});
    if (peek().type != Tok::kEof) fail("unexpected '" + peek().text + "'");
    return body;
  }


 private:
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
};


}  // namespace

Body parse_template(const std::vector<Token>& tokens) { return Parser(tokens).parse_all(); }

}  // namespace servebench::jinja
