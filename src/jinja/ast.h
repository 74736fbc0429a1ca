// The syntax tree of a parsed template: expressions (Expr) and statements (Node). Built by
// parse_template (parser.h), walked by the evaluator (template.cc). Nodes own their children.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jinja/value.h"

namespace servebench::jinja {

enum class ExprType {
  kLiteral,  // literal
  kName,     // name
  kList,     // children
  kTuple,    // children
  kDict,     // children: key, value, key, value...
  kAttr,     // children[0].name
  kItem,     // children[0][children[1]]
  kSlice,    // children[0][a:b:c]; children 1..3 may be null
  kCall,     // children[0](children[1..], kwargs)
  kFilter,   // children[0] | name(children[1..], kwargs)
  kTest,     // children[0] is [not] name(children[1..])
  kUnary,    // name: "not", "-", "+"
  kBinary,   // name: + - * / // % ** ~ and or in "not in" == != < <= > >=
  kCond,     // children[1] ? children[0] : children[2] (may be null)
};

struct Expr {
  ExprType type = ExprType::kLiteral;
  int line = 0;
  std::string name;
  Value literal;
  bool negated = false;
  std::vector<std::unique_ptr<Expr>> children;
  std::vector<std::pair<std::string, std::unique_ptr<Expr>>> kwargs;
};
using ExprPtr = std::unique_ptr<Expr>;

struct Node;
using NodePtr = std::unique_ptr<Node>;
using Body = std::vector<NodePtr>;

enum class NodeType {
  kText,         // text
  kOutput,       // {{ expr }}
  kIf,           // branches (condition, body); else_body
  kFor,          // targets in expr [if filter]: body; else_body
  kSet,          // targets (or attr target) = expr; or block set: body
  kMacro,        // text = name; params; body
  kCallBlock,    // {% call macro(args) %}body{% endcall %}: expr is the call
  kFilterBlock,  // {% filter name(args) %}body{% endfilter %}: expr is the filter applied to a
                 // placeholder literal
  kBreak,
  kContinue,
  kScope,        // body rendered as is ({% generation %})
};

struct Node {
  NodeType type = NodeType::kText;
  int line = 0;
  std::string text;
  ExprPtr expr;
  ExprPtr filter;                 // for: "if" clause
  std::vector<std::string> targets;
  std::string attr;               // set ns.attr = ...
  std::vector<std::pair<ExprPtr, Body>> branches;
  Body body;
  Body else_body;
  std::vector<std::pair<std::string, ExprPtr>> params;  // macro parameters and defaults
};

}  // namespace servebench::jinja
