// Binary operators with Python's rules (int/float promotion, floor division and modulo rounding
// toward negative infinity, sequence concatenation and repetition, membership).
#include <cmath>

#include "jinja/builtins.h"

namespace servebench::jinja {
namespace {

[[noreturn]] void type_error(const std::string& op, const Value& a, const Value& b, int line) {
  throw TemplateError(line, "unsupported operands for '" + op + "': " + to_repr(a) + " and " +
                                to_repr(b));
}

Value repeat(const Value& seq, int64_t n) {
  const size_t unit = seq.is_string() ? seq.str().size() : seq.list->size();
  // An empty sequence repeats to itself at once (fuzz_jinja: `6399999999999999 * []` looped
  // 6.4e15 times appending nothing).
  if (n <= 0 || unit == 0) return seq.is_string() ? Value::string("") : Value::make_list({});
  if (static_cast<uint64_t>(n) > (uint64_t{1} << 26) / unit) {
    throw TemplateError(0, "repetition result too large");
  }
  if (seq.is_string()) {
    std::string out;
    for (int64_t k = 0; k < n; ++k) out += seq.str();
    return Value::string(out);
  }
  List out;
  for (int64_t k = 0; k < n; ++k) out.insert(out.end(), seq.list->begin(), seq.list->end());
  return Value::make_list(std::move(out));
}

Value arithmetic(const std::string& op, const Value& a, const Value& b, int line) {
  bool ints = a.kind == Kind::kInt && b.kind == Kind::kInt;
  double x = a.as_double(), y = b.as_double();
  if (op == "+") return ints ? Value::integer(a.i + b.i) : Value::real(x + y);
  if (op == "-") return ints ? Value::integer(a.i - b.i) : Value::real(x - y);
  if (op == "*") return ints ? Value::integer(a.i * b.i) : Value::real(x * y);
  if (op == "**") {
    if (ints && b.i >= 0) return Value::integer(static_cast<int64_t>(std::pow(x, y)));
    return Value::real(std::pow(x, y));
  }
  if (y == 0) throw TemplateError(line, "division by zero");
  if (op == "/") return Value::real(x / y);
  if (op == "//") {
    if (ints) {
      int64_t q = a.i / b.i;
      if ((a.i % b.i != 0) && ((a.i < 0) != (b.i < 0))) --q;
      return Value::integer(q);
    }
    return Value::real(std::floor(x / y));
  }
  // %
  if (ints) {
    int64_t r = a.i % b.i;
    if (r != 0 && ((r < 0) != (b.i < 0))) r += b.i;
    return Value::integer(r);
  }
  double r = std::fmod(x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return Value::real(r);
}

// "text %s" % value: the %s / %d forms templates use.
Value format_percent(const std::string& fmt, const Value& args, int line) {
  List values = args.kind == Kind::kList && args.is_tuple ? *args.list : List{args};
  std::string out;
  size_t next = 0;
  for (size_t k = 0; k < fmt.size(); ++k) {
    if (fmt[k] != '%' || k + 1 == fmt.size()) {
      out += fmt[k];
      continue;
    }
    char c = fmt[++k];
    if (c == '%') {
      out += '%';
      continue;
    }
    if (next >= values.size()) throw TemplateError(line, "not enough arguments for format string");
    const Value& v = values[next++];
    out += c == 'r' ? to_repr(v) : c == 'd' ? std::to_string(static_cast<int64_t>(v.as_double())) : to_str(v);
  }
  return Value::string(out);
}

bool less(const Value& a, const Value& b, const std::string& op, int line) {
  if ((a.is_number() || a.kind == Kind::kBool) && (b.is_number() || b.kind == Kind::kBool)) {
    return a.as_double() < b.as_double();
  }
  if (a.is_string() && b.is_string()) return a.str() < b.str();
  type_error(op, a, b, line);
}

}  // namespace

Value binary_op(const std::string& op, const Value& a, const Value& b, int line) {
  if (op == "~") return Value::string(to_str(a) + to_str(b));
  if (op == "==") return Value::boolean(equals(a, b));
  if (op == "!=") return Value::boolean(!equals(a, b));
  if (op == "<") return Value::boolean(less(a, b, op, line));
  if (op == ">") return Value::boolean(less(b, a, op, line));
  if (op == "<=") return Value::boolean(!less(b, a, op, line));
  if (op == ">=") return Value::boolean(!less(a, b, op, line));
  if (op == "in" || op == "not in") {
    bool found = false;
    if (b.is_string()) {
      if (!a.is_string()) throw TemplateError(line, "'in <string>' needs a string on the left");
      found = b.str().find(a.str()) != std::string::npos;
    } else if (b.kind == Kind::kList) {
      for (const auto& e : *b.list) found = found || equals(a, e);
    } else if (b.kind == Kind::kDict) {
      found = a.is_string() && b.dict->find(a.str()) != nullptr;
    } else if (!b.is_undefined()) {
      type_error(op, a, b, line);
    }
    return Value::boolean(op == "in" ? found : !found);
  }
  bool numeric = (a.is_number() || a.kind == Kind::kBool) && (b.is_number() || b.kind == Kind::kBool);
  if (numeric) {
    Value x = a.kind == Kind::kBool ? Value::integer(a.b) : a;
    Value y = b.kind == Kind::kBool ? Value::integer(b.b) : b;
    return arithmetic(op, x, y, line);
  }
  if (op == "+" && a.is_string() && b.is_string()) return Value::string(a.str() + b.str());
  if (op == "+" && a.kind == Kind::kList && b.kind == Kind::kList) {
    List out = *a.list;
    out.insert(out.end(), b.list->begin(), b.list->end());
    return Value::make_list(std::move(out));
  }
  if (op == "*" && (a.is_string() || a.kind == Kind::kList) && b.kind == Kind::kInt) return repeat(a, b.i);
  if (op == "*" && (b.is_string() || b.kind == Kind::kList) && a.kind == Kind::kInt) return repeat(b, a.i);
  if (op == "%" && a.is_string()) return format_percent(a.str(), b, line);
  type_error(op, a, b, line);
}

}  // namespace servebench::jinja
