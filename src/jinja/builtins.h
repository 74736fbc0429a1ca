// The filters, tests, attribute/item access and Python methods (str.strip, dict.items, ...)
// that chat templates use, with Python's semantics. Used by the evaluator only.
//
// Thread safety: pure functions.
#pragma once

#include <functional>
#include <string>

#include "jinja/value.h"

namespace servebench::jinja {

// obj.name: a Python method bound to obj, else the dict entry, else Undefined.
// Throws TemplateError when obj is Undefined or None (jinja2's UndefinedError).
Value get_attr(const Value& obj, const std::string& name, int line);
// obj[key]: dict entry, list/str index (negative from the end), else Undefined.
Value get_item(const Value& obj, const Value& key, int line);
// obj[start:stop:step] (null pointers for missing parts).
Value get_slice(const Value& obj, const Value* start, const Value* stop, const Value* step,
                int line);

// The elements a for loop visits (dict: keys; string: characters; Undefined: none).
List iterate(const Value& v, int line);

// Calls a test by name (defined, none, string, ...). Throws on an unknown test.
bool apply_test(const std::string& name, const Value& v, const CallArgs& args, int line);

// Calls a filter by name. `call` invokes a callable Value (for map with a filter name).
Value apply_filter(const std::string& name, const Value& v, const CallArgs& args, int line);

// Arithmetic, comparison and membership with Python's rules.
Value binary_op(const std::string& op, const Value& a, const Value& b, int line);

}  // namespace servebench::jinja
