#include "jinja/value.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace servebench::jinja {

const Value* CallArgs::get(size_t index, std::string_view name) const {
  for (const auto& [k, v] : keyword) {
    if (k == name) return &v;
  }
  return index < positional.size() ? &positional[index] : nullptr;
}

Value Value::none() {
  Value v;
  v.kind = Kind::kNone;
  return v;
}
Value Value::boolean(bool b) {
  Value v;
  v.kind = Kind::kBool;
  v.b = b;
  return v;
}
Value Value::integer(int64_t i) {
  Value v;
  v.kind = Kind::kInt;
  v.i = i;
  return v;
}
Value Value::real(double f) {
  Value v;
  v.kind = Kind::kFloat;
  v.f = f;
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.kind = Kind::kString;
  v.s = std::make_shared<const std::string>(std::move(s));
  return v;
}
Value Value::make_list(List items) {
  Value v;
  v.kind = Kind::kList;
  v.list = std::make_shared<List>(std::move(items));
  return v;
}
Value Value::make_dict() {
  Value v;
  v.kind = Kind::kDict;
  v.dict = std::make_shared<Dict>();
  return v;
}
Value Value::function(Function f) {
  Value v;
  v.kind = Kind::kFunction;
  v.fn = std::make_shared<Function>(std::move(f));
  return v;
}

const std::string& Value::str() const { return *s; }

double Value::as_double() const {
  if (kind == Kind::kInt) return static_cast<double>(i);
  if (kind == Kind::kFloat) return f;
  if (kind == Kind::kBool) return b ? 1 : 0;
  return 0;
}

bool Value::truthy() const {
  switch (kind) {
    case Kind::kUndefined:
    case Kind::kNone:
      return false;
    case Kind::kBool:
      return b;
    case Kind::kInt:
      return i != 0;
    case Kind::kFloat:
      return f != 0;
    case Kind::kString:
      return !s->empty();
    case Kind::kList:
      return !list->empty();
    case Kind::kDict:
      return is_namespace || !dict->items.empty();
    case Kind::kFunction:
      return true;
  }
  return false;
}

const Value* Dict::find(std::string_view key) const {
  for (const auto& [k, v] : items) {
    if (k == key) return &v;
  }
  return nullptr;
}

void Dict::set(const std::string& key, Value value) {
  for (auto& [k, v] : items) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  items.emplace_back(key, std::move(value));
}

namespace {

// Python's repr(float): the shortest digits that round-trip, with ".0" for integral values and
// exponent form outside [1e-4, 1e16).
std::string float_repr(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[64];
  double a = std::fabs(f);
  if (a != 0 && (a < 1e-4 || a >= 1e16)) {
    auto r = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific);
    std::string s(buf, r.ptr);
    // Python writes 1e+16 and 1.5e-05 (at least two exponent digits).
    auto e = s.find('e');
    std::string mant = s.substr(0, e), exp = s.substr(e + 1);
    char sign = exp[0] == '-' ? '-' : '+';
    if (exp[0] == '-' || exp[0] == '+') exp = exp.substr(1);
    while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
    if (exp.size() < 2) exp = "0" + exp;
    return mant + "e" + sign + exp;
  }
  auto r = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::fixed);
  std::string s(buf, r.ptr);
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

std::string string_repr(const std::string& s) {
  bool has_single = s.find('\'') != std::string::npos;
  bool has_double = s.find('"') != std::string::npos;
  char q = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == static_cast<unsigned char>(q)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += q;
  return out;
}

void json_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void json_write(std::string& out, const Value& v, int indent, bool sort_keys, int depth) {
  auto newline = [&](int d) {
    out += '\n';
    out.append(static_cast<size_t>(indent * d), ' ');
  };
  const char* item_sep = indent >= 0 ? "," : ", ";
  switch (v.kind) {
    case Kind::kUndefined:
    case Kind::kNone:
      out += "null";
      return;
    case Kind::kBool:
      out += v.b ? "true" : "false";
      return;
    case Kind::kInt:
      out += std::to_string(v.i);
      return;
    case Kind::kFloat:
      if (std::isnan(v.f)) {
        out += "NaN";
      } else if (std::isinf(v.f)) {
        out += v.f > 0 ? "Infinity" : "-Infinity";
      } else {
        out += float_repr(v.f);
      }
      return;
    case Kind::kString:
      json_string(out, v.str());
      return;
    case Kind::kFunction:
      throw TemplateError(0, "Object of type function is not JSON serializable");
    case Kind::kList: {
      if (v.list->empty()) {
        out += "[]";
        return;
      }
      out += '[';
      for (size_t k = 0; k < v.list->size(); ++k) {
        if (k) out += item_sep;
        if (indent >= 0) newline(depth + 1);
        json_write(out, (*v.list)[k], indent, sort_keys, depth + 1);
      }
      if (indent >= 0) newline(depth);
      out += ']';
      return;
    }
    case Kind::kDict: {
      if (v.dict->items.empty()) {
        out += "{}";
        return;
      }
      std::vector<const std::pair<std::string, Value>*> items;
      for (const auto& kv : v.dict->items) items.push_back(&kv);
      if (sort_keys) {
        std::stable_sort(items.begin(), items.end(),
                         [](auto* a, auto* b) { return a->first < b->first; });
      }
      out += '{';
      for (size_t k = 0; k < items.size(); ++k) {
        if (k) out += item_sep;
        if (indent >= 0) newline(depth + 1);
        json_string(out, items[k]->first);
        out += ": ";
        json_write(out, items[k]->second, indent, sort_keys, depth + 1);
      }
      if (indent >= 0) newline(depth);
      out += '}';
      return;
    }
  }
}

Value from_nlohmann(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
      return Value::none();
    case nlohmann::ordered_json::value_t::boolean:
      return Value::boolean(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return Value::integer(j.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return Value::integer(static_cast<int64_t>(j.get<uint64_t>()));
    case nlohmann::ordered_json::value_t::number_float:
      return Value::real(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return Value::string(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      List items;
      for (const auto& e : j) items.push_back(from_nlohmann(e));
      return Value::make_list(std::move(items));
    }
    case nlohmann::ordered_json::value_t::object: {
      Value d = Value::make_dict();
      for (auto it = j.begin(); it != j.end(); ++it) d.dict->set(it.key(), from_nlohmann(*it));
      return d;
    }
    default:
      return Value::none();
  }
}

}  // namespace

namespace {

// Printing a value may not grow past this: `{{ 40141 * [500141 * [50]] }}` is a small template
// whose text would be 20 billion items (found by fuzz_jinja).
constexpr size_t kMaxPrinted = size_t{64} << 20;

void append_repr(const Value& v, std::string* out) {
  if (out->size() > kMaxPrinted) throw TemplateError(0, "value too large to print (over 64 MiB)");
  switch (v.kind) {
    case Kind::kString:
      *out += string_repr(v.str());
      return;
    case Kind::kList: {
      *out += v.is_tuple ? "(" : "[";
      for (size_t k = 0; k < v.list->size(); ++k) {
        if (k) *out += ", ";
        append_repr((*v.list)[k], out);
      }
      if (v.is_tuple && v.list->size() == 1) *out += ",";
      *out += v.is_tuple ? ")" : "]";
      return;
    }
    case Kind::kDict: {
      if (v.is_namespace) {
        *out += "<Namespace>";
        return;
      }
      *out += "{";
      bool first = true;
      for (const auto& [k, e] : v.dict->items) {
        if (!first) *out += ", ";
        first = false;
        *out += string_repr(k) + ": ";
        append_repr(e, out);
      }
      *out += "}";
      return;
    }
    default:
      *out += to_str(v);
  }
}

}  // namespace

std::string to_repr(const Value& v) {
  std::string out;
  append_repr(v, &out);
  return out;
}

std::string to_str(const Value& v) {
  switch (v.kind) {
    case Kind::kUndefined:
      return "";
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return v.b ? "True" : "False";
    case Kind::kInt:
      return std::to_string(v.i);
    case Kind::kFloat:
      return float_repr(v.f);
    case Kind::kString:
      return v.str();
    case Kind::kFunction:
      return "<function>";
    default:
      return to_repr(v);
  }
}

bool equals(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  if ((a.kind == Kind::kBool && b.is_number()) || (b.kind == Kind::kBool && a.is_number())) {
    return a.as_double() == b.as_double();
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kUndefined:
    case Kind::kNone:
      return true;
    case Kind::kBool:
      return a.b == b.b;
    case Kind::kString:
      return a.str() == b.str();
    case Kind::kList:
      if (a.list->size() != b.list->size()) return false;
      for (size_t k = 0; k < a.list->size(); ++k) {
        if (!equals((*a.list)[k], (*b.list)[k])) return false;
      }
      return true;
    case Kind::kDict:
      if (a.dict == b.dict) return true;
      if (a.dict->items.size() != b.dict->items.size()) return false;
      for (const auto& [k, e] : a.dict->items) {
        const Value* o = b.dict->find(k);
        if (o == nullptr || !equals(e, *o)) return false;
      }
      return true;
    case Kind::kFunction:
      return a.fn == b.fn;
    default:
      return false;
  }
}

std::string to_json(const Value& v, int indent, bool sort_keys) {
  std::string out;
  json_write(out, v, indent, sort_keys, 0);
  return out;
}

core::Result<Value> value_from_json(std::string_view json_text) {
  try {
    return from_nlohmann(nlohmann::ordered_json::parse(json_text));
  } catch (const std::exception& e) {
    return core::make_error(core::ErrorCode::kParse, std::string("invalid JSON: ") + e.what());
  }
}

}  // namespace servebench::jinja
