// Value: the dynamic value a Jinja template computes with, modelled on the Python objects that
// jinja2 sees when Hugging Face renders a chat template (None, bool, int, float, str, list,
// dict with insertion order, callables, namespace()). Undefined is a kind of its own, as in
// jinja2's default Undefined: it prints as "", is falsy, iterates as empty, and fails on
// attribute access.
//
// Lists and dicts are shared (copying a Value is cheap); a namespace is the one mutable object.
//
// Thread safety: values are not synchronised; one render uses its values on one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace servebench::jinja {

// The error a template raises while parsing or rendering (caught at the API boundary and turned
// into a core::Error naming the template line).
struct TemplateError : std::runtime_error {
  TemplateError(int line, const std::string& message)
      : std::runtime_error(message), line_(line) {}
  int line_;
};

struct Value;
struct Dict;
using List = std::vector<Value>;

// Arguments of a call: positional then keyword, in call order.
struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keyword;
  const Value* get(size_t index, std::string_view name) const;
};
using Function = std::function<Value(const CallArgs&)>;

enum class Kind { kUndefined, kNone, kBool, kInt, kFloat, kString, kList, kDict, kFunction };

struct Value {
  Kind kind = Kind::kUndefined;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::shared_ptr<const std::string> s;
  std::shared_ptr<List> list;
  std::shared_ptr<Dict> dict;
  std::shared_ptr<Function> fn;
  bool is_namespace = false;  // a dict whose attributes may be set (namespace())
  bool is_tuple = false;      // printed as (a, b) rather than [a, b]

  static Value undefined() { return Value(); }
  static Value none();
  static Value boolean(bool v);
  static Value integer(int64_t v);
  static Value real(double v);
  static Value string(std::string v);
  static Value make_list(List items);
  static Value make_dict();
  static Value function(Function f);

  bool is_undefined() const { return kind == Kind::kUndefined; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_number() const { return kind == Kind::kInt || kind == Kind::kFloat; }
  const std::string& str() const;  // REQUIRES: is_string()
  double as_double() const;

  bool truthy() const;
};

struct Dict {
  std::vector<std::pair<std::string, Value>> items;
  const Value* find(std::string_view key) const;
  void set(const std::string& key, Value value);
};

// Python's str(value) (what {{ value }} prints) and repr(value).
std::string to_str(const Value& v);
std::string to_repr(const Value& v);
// Python's == between the objects.
bool equals(const Value& a, const Value& b);
// json.dumps(value, ensure_ascii=False, indent=indent (<0: none), sort_keys=...), as Hugging
// Face's tojson filter calls it.
std::string to_json(const Value& v, int indent, bool sort_keys);

// JSON text (objects keep their key order) → Value.
core::Result<Value> value_from_json(std::string_view json_text);

}  // namespace servebench::jinja
