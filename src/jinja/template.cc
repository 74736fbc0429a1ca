// The evaluator: walks the statement tree with a stack of variable scopes. jinja2's scoping is
// kept: a for loop body and a macro body get their own scope (so "set" inside a loop does not
// leak out, which is why templates use namespace()); if blocks do not.
#include "jinja/template.h"

#include <ctime>
#include <unordered_map>

#include "jinja/ast.h"
#include "jinja/builtins.h"
#include "jinja/lexer.h"
#include "jinja/parser.h"

namespace servebench::jinja {
namespace {

struct RaisedError : TemplateError {
  using TemplateError::TemplateError;
};

enum class Flow { kNormal, kBreak, kContinue };

using Scope = std::unordered_map<std::string, Value>;

std::string wall_clock_strftime(const std::string& format) {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[256];
  size_t n = std::strftime(buf, sizeof(buf), format.c_str(), &tm);
  return std::string(buf, n);
}

class Evaluator {
 public:
  Evaluator(const Value& context, const RenderOptions& options) : options_(options) {
    scopes_.push_back(std::make_shared<Scope>());
    install_globals();
    if (context.kind == Kind::kDict) {
      for (const auto& [k, v] : context.dict->items) (*scopes_[0])[k] = v;
    }
  }

  std::string render(const Body& body) {
    std::string out;
    exec_body(body, out);
    return out;
  }

 private:
  void install_globals() {
    Scope& g = *scopes_[0];
    g["raise_exception"] = Value::function([](const CallArgs& a) -> Value {
      throw RaisedError(0, a.positional.empty() ? "" : to_str(a.positional[0]));
    });
    auto clock = options_.strftime_now ? options_.strftime_now : wall_clock_strftime;
    g["strftime_now"] = Value::function([clock](const CallArgs& a) {
      return Value::string(clock(a.positional.empty() ? "" : to_str(a.positional[0])));
    });
    g["namespace"] = Value::function([](const CallArgs& a) {
      Value ns = Value::make_dict();
      ns.is_namespace = true;
      for (const auto& p : a.positional) {
        if (p.kind == Kind::kDict) {
          for (const auto& kv : p.dict->items) ns.dict->set(kv.first, kv.second);
        }
      }
      for (const auto& [k, v] : a.keyword) ns.dict->set(k, v);
      return ns;
    });
    g["dict"] = Value::function([](const CallArgs& a) {
      Value d = Value::make_dict();
      for (const auto& [k, v] : a.keyword) d.dict->set(k, v);
      return d;
    });
    g["range"] = Value::function([](const CallArgs& a) {
      int64_t start = 0, stop = 0, step = 1;
      auto n = [&](size_t k) { return a.positional[k].kind == Kind::kInt ? a.positional[k].i : 0; };
      if (a.positional.size() == 1) stop = n(0);
      if (a.positional.size() >= 2) start = n(0), stop = n(1);
      if (a.positional.size() >= 3) step = n(2);
      if (step == 0) throw TemplateError(0, "range() step must not be zero");
      List out;
      for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step) {
        out.push_back(Value::integer(k));
        if (out.size() > 1'000'000) throw TemplateError(0, "range() too long");
      }
      return Value::make_list(std::move(out));
    });
  }

  Value lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = (*it)->find(name);
      if (f != (*it)->end()) return f->second;
    }
    return Value::undefined();
  }

  void assign(const std::string& name, Value v) { (*scopes_.back())[name] = std::move(v); }

  Flow exec_body(const Body& body, std::string& out) {
    for (const auto& n : body) {
      Flow f = exec(*n, out);
      if (f != Flow::kNormal) return f;
    }
    return Flow::kNormal;
  }

  Flow exec(const Node& n, std::string& out) {
    try {
      return exec_node(n, out);
    } catch (TemplateError& e) {
      if (e.line_ == 0) e.line_ = n.line;
      throw;
    }
  }

  Flow exec_node(const Node& n, std::string& out) {
    switch (n.type) {
      case NodeType::kText:
        out += n.text;
        return Flow::kNormal;
      case NodeType::kOutput:
        out += to_str(eval(*n.expr));
        return Flow::kNormal;
      case NodeType::kIf:
        for (const auto& [cond, body] : n.branches) {
          if (eval(*cond).truthy()) return exec_body(body, out);
        }
        return exec_body(n.else_body, out);
      case NodeType::kFor:
        return exec_for(n, out);
      case NodeType::kSet:
        exec_set(n);
        return Flow::kNormal;
      case NodeType::kMacro:
        assign(n.text, make_macro(n));
        return Flow::kNormal;
      case NodeType::kCallBlock:
        out += to_str(eval_call(*n.expr, &n));
        return Flow::kNormal;
      case NodeType::kFilterBlock: {
        std::string inner;
        exec_body(n.body, inner);
        out += to_str(eval_filter_chain(*n.expr, Value::string(inner)));
        return Flow::kNormal;
      }
      case NodeType::kBreak:
        return Flow::kBreak;
      case NodeType::kContinue:
        return Flow::kContinue;
      case NodeType::kScope:
        return exec_body(n.body, out);
    }
    return Flow::kNormal;
  }

  void bind_targets(const std::vector<std::string>& targets, const Value& item, int line) {
    if (targets.size() == 1) {
      assign(targets[0], item);
      return;
    }
    List parts = iterate(item, line);
    if (parts.size() != targets.size()) {
      throw TemplateError(line, "cannot unpack " + std::to_string(parts.size()) + " values into " +
                                    std::to_string(targets.size()) + " names");
    }
    for (size_t k = 0; k < targets.size(); ++k) assign(targets[k], parts[k]);
  }

  Flow exec_for(const Node& n, std::string& out) {
    List all = iterate(eval(*n.expr), n.line);
    scopes_.push_back(std::make_shared<Scope>());
    List items;
    if (n.filter) {
      for (const auto& item : all) {
        bind_targets(n.targets, item, n.line);
        if (eval(*n.filter).truthy()) items.push_back(item);
      }
    } else {
      items = std::move(all);
    }
    int64_t len = static_cast<int64_t>(items.size());
    for (int64_t k = 0; k < len; ++k) {
      const Value& item = items[static_cast<size_t>(k)];
      bind_targets(n.targets, item, n.line);
      Value loop = Value::make_dict();
      Dict& d = *loop.dict;
      d.set("index0", Value::integer(k));
      d.set("index", Value::integer(k + 1));
      d.set("revindex0", Value::integer(len - k - 1));
      d.set("revindex", Value::integer(len - k));
      d.set("first", Value::boolean(k == 0));
      d.set("last", Value::boolean(k == len - 1));
      d.set("length", Value::integer(len));
      d.set("depth", Value::integer(1));
      d.set("depth0", Value::integer(0));
      d.set("previtem", k > 0 ? items[static_cast<size_t>(k - 1)] : Value::undefined());
      d.set("nextitem", k + 1 < len ? items[static_cast<size_t>(k + 1)] : Value::undefined());
      assign("loop", loop);
      if (exec_body(n.body, out) == Flow::kBreak) break;
    }
    scopes_.pop_back();
    if (items.empty()) exec_body(n.else_body, out);
    return Flow::kNormal;
  }

  void exec_set(const Node& n) {
    Value v;
    if (n.expr) {
      v = eval(*n.expr);
    } else {
      std::string inner;
      exec_body(n.body, inner);
      v = Value::string(inner);
      if (n.filter) v = eval_filter_chain(*n.filter, v);
    }
    if (!n.attr.empty()) {
      Value ns = lookup(n.targets[0]);
      if (ns.kind != Kind::kDict || !ns.is_namespace) {
        throw TemplateError(n.line, "cannot set attribute '" + n.attr + "' of a non-namespace");
      }
      ns.dict->set(n.attr, v);
      return;
    }
    bind_targets(n.targets, v, n.line);
  }

  Value make_macro(const Node& n) {
    const Node* node = &n;
    return Value::function([this, node](const CallArgs& a) { return call_macro(*node, a, nullptr); });
  }

  Value call_macro(const Node& n, const CallArgs& a, const Node* caller) {
    if (++depth_ > 200) throw TemplateError(n.line, "macro recursion too deep");
    auto saved = scopes_;
    scopes_.resize(1);
    scopes_.push_back(std::make_shared<Scope>());
    for (size_t k = 0; k < n.params.size(); ++k) {
      const auto& [name, def] = n.params[k];
      const Value* v = a.get(k, name);
      assign(name, v ? *v : def ? eval(*def) : Value::undefined());
    }
    if (caller != nullptr) {
      auto caller_scopes = saved;
      assign("caller", Value::function([this, caller, caller_scopes](const CallArgs&) {
        auto inner_saved = scopes_;
        scopes_ = caller_scopes;
        std::string text;
        exec_body(caller->body, text);
        scopes_ = inner_saved;
        return Value::string(text);
      }));
    }
    std::string out;
    exec_body(n.body, out);
    scopes_ = std::move(saved);
    --depth_;
    return Value::string(out);
  }

  CallArgs eval_args(const Expr& e, size_t first) {
    CallArgs a;
    for (size_t k = first; k < e.children.size(); ++k) a.positional.push_back(eval(*e.children[k]));
    for (const auto& [k, v] : e.kwargs) a.keyword.emplace_back(k, eval(*v));
    return a;
  }

  Value eval_call(const Expr& e, const Node* call_block) {
    if (e.type != ExprType::kCall) throw TemplateError(e.line, "call block needs a macro call");
    Value callee = eval(*e.children[0]);
    if (callee.kind != Kind::kFunction) {
      throw TemplateError(e.line, "value is not callable: " + to_repr(callee));
    }
    CallArgs args = eval_args(e, 1);
    if (call_block == nullptr) return (*callee.fn)(args);
    // {% call m() %}: find the macro by name so that caller() can be bound.
    const Expr& target = *e.children[0];
    if (target.type != ExprType::kName) throw TemplateError(e.line, "call block needs a macro name");
    const Node* macro = find_macro(target.name);
    if (macro == nullptr) throw TemplateError(e.line, "unknown macro '" + target.name + "'");
    return call_macro(*macro, args, call_block);
  }

  const Node* find_macro(const std::string& name) const {
    auto it = macros_.find(name);
    return it == macros_.end() ? nullptr : it->second;
  }

  // A filter chain whose innermost subject is a placeholder literal, applied to `subject`.
  Value eval_filter_chain(const Expr& e, const Value& subject) {
    if (e.type != ExprType::kFilter) return subject;
    Value inner = eval_filter_chain(*e.children[0], subject);
    return apply_filter(e.name, inner, eval_args(e, 1), e.line);
  }

  Value eval(const Expr& e) {
    try {
      return eval_expr(e);
    } catch (TemplateError& err) {
      if (err.line_ == 0) err.line_ = e.line;
      throw;
    }
  }

  Value eval_expr(const Expr& e) {
    switch (e.type) {
      case ExprType::kLiteral:
        return e.literal;
      case ExprType::kName:
        return lookup(e.name);
      case ExprType::kList:
      case ExprType::kTuple: {
        List items;
        for (const auto& c : e.children) items.push_back(eval(*c));
        Value v = Value::make_list(std::move(items));
        v.is_tuple = e.type == ExprType::kTuple;
        return v;
      }
      case ExprType::kDict: {
        Value d = Value::make_dict();
        for (size_t k = 0; k + 1 < e.children.size(); k += 2) {
          d.dict->set(to_str(eval(*e.children[k])), eval(*e.children[k + 1]));
        }
        return d;
      }
      case ExprType::kAttr:
        return get_attr(eval(*e.children[0]), e.name, e.line);
      case ExprType::kItem: {
        Value obj = eval(*e.children[0]);
        Value key = eval(*e.children[1]);
        Value v = get_item(obj, key, e.line);
        if (v.is_undefined() && key.is_string() && obj.kind == Kind::kDict) return v;
        return v;
      }
      case ExprType::kSlice: {
        Value obj = eval(*e.children[0]);
        Value parts[3];
        const Value* p[3] = {nullptr, nullptr, nullptr};
        for (int k = 0; k < 3; ++k) {
          if (e.children[static_cast<size_t>(k) + 1]) {
            parts[k] = eval(*e.children[static_cast<size_t>(k) + 1]);
            p[k] = &parts[k];
          }
        }
        return get_slice(obj, p[0], p[1], p[2], e.line);
      }
      case ExprType::kCall:
        return eval_call(e, nullptr);
      case ExprType::kFilter:
        return apply_filter(e.name, eval(*e.children[0]), eval_args(e, 1), e.line);
      case ExprType::kTest: {
        bool r = apply_test(e.name, eval(*e.children[0]), eval_args(e, 1), e.line);
        return Value::boolean(r != e.negated);
      }
      case ExprType::kUnary: {
        Value v = eval(*e.children[0]);
        if (e.name == "not") return Value::boolean(!v.truthy());
        if (e.name == "-") return binary_op("-", Value::integer(0), v, e.line);
        return v;
      }
      case ExprType::kBinary: {
        if (e.name == "and" || e.name == "or") {
          Value a = eval(*e.children[0]);
          if (a.truthy() == (e.name == "or")) return a;
          return eval(*e.children[1]);
        }
        return binary_op(e.name, eval(*e.children[0]), eval(*e.children[1]), e.line);
      }
      case ExprType::kCond:
        if (eval(*e.children[1]).truthy()) return eval(*e.children[0]);
        return e.children[2] ? eval(*e.children[2]) : Value::undefined();
    }
    return Value::undefined();
  }

 public:
  void register_macros(const Body& body) {
    for (const auto& n : body) {
      if (n->type == NodeType::kMacro) macros_[n->text] = n.get();
      register_macros(n->body);
      register_macros(n->else_body);
      for (const auto& b : n->branches) register_macros(b.second);
    }
  }

 private:
  const RenderOptions& options_;
  std::vector<std::shared_ptr<Scope>> scopes_;
  std::unordered_map<std::string, const Node*> macros_;
  int depth_ = 0;
};

std::string with_line(int line, const std::string& message) {
  return "template line " + std::to_string(line) + ": " + message;
}

}  // namespace

core::Result<Template> Template::parse(std::string_view source) {
  try {
    Template t;
    t.body_ = std::make_shared<const Body>(parse_template(lex_template(source)));
    return t;
  } catch (const TemplateError& e) {
    return core::make_error(core::ErrorCode::kParse, with_line(e.line_, e.what()));
  } catch (const std::exception& e) {
    return core::make_error(core::ErrorCode::kParse, std::string("template: ") + e.what());
  }
}

core::Result<std::string> Template::render(const Value& context, const RenderOptions& options) const {
  try {
    Evaluator ev(context, options);
    ev.register_macros(*body_);
    return ev.render(*body_);
  } catch (const RaisedError& e) {
    return core::make_error(core::ErrorCode::kInvalidArgument,
                            with_line(e.line_, std::string("raised: ") + e.what()));
  } catch (const TemplateError& e) {
    return core::make_error(core::ErrorCode::kParse, with_line(e.line_, e.what()));
  } catch (const std::exception& e) {
    return core::make_error(core::ErrorCode::kParse, std::string("template: ") + e.what());
  }
}

}  // namespace servebench::jinja
