// Filters, tests and binary operators.
#include <algorithm>
#include <cmath>

#include "jinja/builtins.h"
#include "jinja/utf8.h"

namespace servebench::jinja {
namespace {

const Value kNoArg;

const Value& arg(const CallArgs& a, size_t k, std::string_view name) {
  const Value* v = a.get(k, name);
  return v ? *v : kNoArg;
}

int64_t length_of(const Value& v, int line) {
  switch (v.kind) {
    case Kind::kString:
      return static_cast<int64_t>(utf8_length(v.str()));
    case Kind::kList:
      return static_cast<int64_t>(v.list->size());
    case Kind::kDict:
      return static_cast<int64_t>(v.dict->items.size());
    case Kind::kUndefined:
      return 0;
    default:
      throw TemplateError(line, "object has no length: " + to_repr(v));
  }
}

// attribute="a.b" lookups as jinja2's make_attrgetter does (item access, dotted paths).
Value attr_path(const Value& v, const std::string& path, int line) {
  Value cur = v;
  size_t k = 0;
  while (k <= path.size()) {
    size_t e = path.find('.', k);
    if (e == std::string::npos) e = path.size();
    std::string part = path.substr(k, e - k);
    bool digits = !part.empty() && std::all_of(part.begin(), part.end(), ::isdigit);
    if (cur.is_undefined()) return cur;
    cur = digits ? get_item(cur, Value::integer(std::stoll(part)), line)
                 : get_item(cur, Value::string(part), line);
    k = e + 1;
  }
  return cur;
}

// select/reject/selectattr/rejectattr: keep items whose test (or truthiness) is `want`.
Value select(const Value& v, const CallArgs& a, bool by_attr, bool want, int line) {
  size_t first = 0;
  std::string attribute;
  if (by_attr) {
    attribute = to_str(arg(a, 0, "attribute"));
    first = 1;
  }
  CallArgs test_args;
  std::string test;
  if (a.positional.size() > first) {
    test = to_str(a.positional[first]);
    test_args.positional.assign(a.positional.begin() + static_cast<long>(first) + 1,
                                a.positional.end());
  }
  List out;
  for (const auto& item : iterate(v, line)) {
    Value subject = by_attr ? attr_path(item, attribute, line) : item;
    bool ok = test.empty() ? subject.truthy() : apply_test(test, subject, test_args, line);
    if (ok == want) out.push_back(item);
  }
  return Value::make_list(std::move(out));
}

Value map_filter(const Value& v, const CallArgs& a, int line) {
  List out;
  const Value* attribute = a.get(99, "attribute");
  if (attribute != nullptr) {
    const Value* def = a.get(99, "default");
    for (const auto& item : iterate(v, line)) {
      Value r = attr_path(item, to_str(*attribute), line);
      out.push_back((r.is_undefined() && def) ? *def : r);
    }
    return Value::make_list(std::move(out));
  }
  if (a.positional.empty()) throw TemplateError(line, "map needs a filter name or attribute=");
  std::string filter = to_str(a.positional[0]);
  CallArgs rest;
  rest.positional.assign(a.positional.begin() + 1, a.positional.end());
  for (const auto& item : iterate(v, line)) out.push_back(apply_filter(filter, item, rest, line));
  return Value::make_list(std::move(out));
}

std::string indent_filter(const std::string& s, const CallArgs& a) {
  const Value& w = arg(a, 0, "width");
  std::string pad = w.is_string() ? w.str() : std::string(static_cast<size_t>(w.kind == Kind::kInt ? w.i : 4), ' ');
  bool first = arg(a, 1, "first").truthy();
  bool blank = arg(a, 2, "blank").truthy();
  std::string out;
  size_t k = 0;
  bool first_line = true;
  while (k <= s.size()) {
    size_t e = s.find('\n', k);
    bool last = e == std::string::npos;
    std::string line = s.substr(k, last ? std::string::npos : e - k);
    if ((!first_line || first) && (blank || !line.empty())) out += pad;
    out += line;
    if (last) break;
    out += '\n';
    first_line = false;
    k = e + 1;
  }
  return out;
}

Value tojson_filter(const Value& v, const CallArgs& a) {
  const Value& indent = arg(a, 99, "indent");
  int n = indent.kind == Kind::kInt ? static_cast<int>(indent.i) : -1;
  if (const Value* p = a.get(0, "indent"); p && p->kind == Kind::kInt) n = static_cast<int>(p->i);
  return Value::string(to_json(v, n, arg(a, 99, "sort_keys").truthy()));
}

}  // namespace

bool apply_test(const std::string& name, const Value& v, const CallArgs& a, int line) {
  if (name == "defined") return !v.is_undefined();
  if (name == "undefined") return v.is_undefined();
  if (name == "none") return v.kind == Kind::kNone;
  if (name == "string") return v.is_string();
  if (name == "mapping") return v.kind == Kind::kDict;
  if (name == "iterable") return v.kind == Kind::kList || v.kind == Kind::kDict || v.is_string();
  if (name == "sequence") return v.kind == Kind::kList || v.kind == Kind::kDict || v.is_string();
  if (name == "number") return v.is_number() || v.kind == Kind::kBool;
  if (name == "integer") return v.kind == Kind::kInt;
  if (name == "float") return v.kind == Kind::kFloat;
  if (name == "boolean") return v.kind == Kind::kBool;
  if (name == "true") return v.kind == Kind::kBool && v.b;
  if (name == "false") return v.kind == Kind::kBool && !v.b;
  if (name == "callable") return v.kind == Kind::kFunction;
  if (name == "odd" || name == "even") {
    if (v.kind != Kind::kInt) throw TemplateError(line, "'" + name + "' needs an integer");
    return (v.i % 2 != 0) == (name == "odd");
  }
  if (name == "divisibleby") return v.kind == Kind::kInt && arg(a, 0, "num").i != 0 && v.i % arg(a, 0, "num").i == 0;
  if (name == "equalto" || name == "eq" || name == "==") return equals(v, arg(a, 0, "other"));
  if (name == "ne" || name == "!=") return !equals(v, arg(a, 0, "other"));
  if (name == "sameas") {
    const Value& o = arg(a, 0, "other");
    if (v.kind != o.kind) return false;
    if (v.kind == Kind::kNone || v.kind == Kind::kUndefined) return true;
    if (v.kind == Kind::kBool) return v.b == o.b;
    return equals(v, o);
  }
  if (name == "in") return binary_op("in", v, arg(a, 0, "seq"), line).b;
  if (name == "lower") return v.is_string() && ascii_lower(v.str()) == v.str();
  if (name == "upper") return v.is_string() && ascii_upper(v.str()) == v.str();
  if (name == "gt" || name == "lt" || name == "ge" || name == "le") {
    static const char* kOps[][2] = {{"gt", ">"}, {"lt", "<"}, {"ge", ">="}, {"le", "<="}};
    for (auto& op : kOps) {
      if (name == op[0]) return binary_op(op[1], v, arg(a, 0, "other"), line).b;
    }
  }
  throw TemplateError(line, "unknown test '" + name + "'");
}

Value apply_filter(const std::string& name, const Value& v, const CallArgs& a, int line) {
  if (name == "trim") return get_attr(Value::string(to_str(v)), "strip", line).fn->operator()(a);
  if (name == "length" || name == "count") return Value::integer(length_of(v, line));
  if (name == "tojson") return tojson_filter(v, a);
  if (name == "string") return v.is_string() ? v : Value::string(to_str(v));
  if (name == "upper") return Value::string(ascii_upper(to_str(v)));
  if (name == "lower") return Value::string(ascii_lower(to_str(v)));
  if (name == "title") return Value::string(ascii_title(to_str(v)));
  if (name == "capitalize") return Value::string(ascii_capitalize(to_str(v)));
  if (name == "safe" || name == "e" || name == "escape" || name == "forceescape") return v;
  if (name == "replace") return get_attr(Value::string(to_str(v)), "replace", line).fn->operator()(a);
  if (name == "indent") return Value::string(indent_filter(to_str(v), a));
  if (name == "items") {
    if (v.is_undefined()) return Value::make_list({});
    if (v.kind != Kind::kDict) throw TemplateError(line, "items filter needs a mapping");
    return get_attr(v, "items", line).fn->operator()(CallArgs{});
  }
  if (name == "list") return Value::make_list(iterate(v, line));
  if (name == "join") {
    const Value& d = arg(a, 0, "d");
    const Value* attribute = a.get(99, "attribute");
    std::string sep = d.is_string() ? d.str() : "";
    std::string out;
    List items = iterate(v, line);
    for (size_t k = 0; k < items.size(); ++k) {
      out += (k ? sep : "") + to_str(attribute ? attr_path(items[k], to_str(*attribute), line) : items[k]);
    }
    return Value::string(out);
  }
  if (name == "default" || name == "d") {
    bool boolean = arg(a, 1, "boolean").truthy();
    bool use_default = boolean ? !v.truthy() : v.is_undefined();
    return use_default ? (a.get(0, "default_value") ? arg(a, 0, "default_value") : Value::string("")) : v;
  }
  if (name == "first" || name == "last") {
    List items = iterate(v, line);
    if (items.empty()) return Value::undefined();
    return name == "first" ? items.front() : items.back();
  }
  if (name == "reverse") {
    if (v.is_string()) {
      Value step = Value::integer(-1);
      return get_slice(v, nullptr, nullptr, &step, line);
    }
    List items = iterate(v, line);
    std::reverse(items.begin(), items.end());
    return Value::make_list(std::move(items));
  }
  if (name == "unique") {
    List out;
    for (const auto& item : iterate(v, line)) {
      if (std::none_of(out.begin(), out.end(), [&](const Value& o) { return equals(o, item); })) out.push_back(item);
    }
    return Value::make_list(std::move(out));
  }
  if (name == "map") return map_filter(v, a, line);
  if (name == "select") return select(v, a, false, true, line);
  if (name == "reject") return select(v, a, false, false, line);
  if (name == "selectattr") return select(v, a, true, true, line);
  if (name == "rejectattr") return select(v, a, true, false, line);
  if (name == "int") {
    if (v.kind == Kind::kFloat) return Value::integer(static_cast<int64_t>(v.f));
    if (v.kind == Kind::kInt) return v;
    if (v.kind == Kind::kBool) return Value::integer(v.b);
    try {
      return Value::integer(std::stoll(to_str(v)));
    } catch (...) {
      return a.get(0, "default") ? arg(a, 0, "default") : Value::integer(0);
    }
  }
  if (name == "float") {
    if (v.is_number()) return Value::real(v.as_double());
    try {
      return Value::real(std::stod(to_str(v)));
    } catch (...) {
      return Value::real(0);
    }
  }
  if (name == "abs") return v.kind == Kind::kInt ? Value::integer(v.i < 0 ? -v.i : v.i) : Value::real(std::fabs(v.as_double()));
  if (name == "sum") {
    Value total = Value::integer(0);
    for (const auto& item : iterate(v, line)) total = binary_op("+", total, item, line);
    return total;
  }
  throw TemplateError(line, "unknown filter '" + name + "'");
}

}  // namespace servebench::jinja
