// Attribute and item access, slicing, iteration, Python methods and binary operators.
#include <algorithm>
#include <cmath>

#include "jinja/builtins.h"
#include "jinja/utf8.h"

namespace servebench::jinja {
namespace {

const char* kWhitespace = " \t\n\r\v\f";

std::string strip_chars(const std::string& s, const CallArgs& a, bool left, bool right) {
  const Value* chars = a.get(0, "chars");
  std::string set = (chars && chars->is_string()) ? chars->str() : kWhitespace;
  size_t b = 0, e = s.size();
  if (left) {
    while (b < e && set.find(s[b]) != std::string::npos) ++b;
  }
  if (right) {
    while (e > b && set.find(s[e - 1]) != std::string::npos) --e;
  }
  return s.substr(b, e - b);
}

Value str_split(const std::string& s, const CallArgs& a) {
  const Value* sep = a.get(0, "sep");
  const Value* maxv = a.get(1, "maxsplit");
  int64_t max_split = (maxv && maxv->kind == Kind::kInt) ? maxv->i : -1;
  List out;
  if (sep != nullptr && sep->kind != Kind::kNone && sep->kind != Kind::kUndefined &&
      !sep->is_string())
    throw TemplateError(0, "split() separator must be a string");
  if (sep == nullptr || sep->kind == Kind::kNone || sep->kind == Kind::kUndefined) {
    size_t k = 0;
    while (true) {
      while (k < s.size() && std::string_view(kWhitespace).find(s[k]) != std::string_view::npos) ++k;
      if (k >= s.size()) break;
      if (max_split >= 0 && static_cast<int64_t>(out.size()) == max_split) {
        std::string rest = s.substr(k);
        while (!rest.empty() && std::string_view(kWhitespace).find(rest.back()) != std::string_view::npos) rest.pop_back();
        out.push_back(Value::string(rest));
        break;
      }
      size_t e = k;
      while (e < s.size() && std::string_view(kWhitespace).find(s[e]) == std::string_view::npos) ++e;
      out.push_back(Value::string(s.substr(k, e - k)));
      k = e;
    }
    return Value::make_list(std::move(out));
  }
  const std::string& d = sep->str();
  if (d.empty()) throw TemplateError(0, "empty separator");
  size_t k = 0;
  while (true) {
    size_t e = s.find(d, k);
    if (e == std::string::npos || (max_split >= 0 && static_cast<int64_t>(out.size()) == max_split)) {
      out.push_back(Value::string(s.substr(k)));
      break;
    }
    out.push_back(Value::string(s.substr(k, e - k)));
    k = e + d.size();
  }
  return Value::make_list(std::move(out));
}

std::string replace_all(const std::string& s, const std::string& from, const std::string& to,
                        int64_t count) {
  if (from.empty()) return s;
  std::string out;
  size_t k = 0;
  int64_t n = 0;
  while (count < 0 || n < count) {
    size_t e = s.find(from, k);
    if (e == std::string::npos) break;
    out.append(s, k, e - k);
    out += to;
    k = e + from.size();
    ++n;
  }
  out.append(s, k, std::string::npos);
  return out;
}

bool affix_match(const std::string& s, const Value& arg, bool prefix) {
  auto one = [&](const std::string& a) {
    if (a.size() > s.size()) return false;
    return prefix ? s.compare(0, a.size(), a) == 0 : s.compare(s.size() - a.size(), a.size(), a) == 0;
  };
  if (arg.is_string()) return one(arg.str());
  if (arg.kind == Kind::kList) {
    for (const auto& e : *arg.list) {
      if (e.is_string() && one(e.str())) return true;
    }
  }
  return false;
}

std::string need_str(const CallArgs& a, size_t k, const char* method) {
  if (a.positional.size() <= k || !a.positional[k].is_string()) {
    throw TemplateError(0, std::string(method) + "() needs a string argument");
  }
  return a.positional[k].str();
}

Value string_method(const Value& obj, const std::string& name) {
  const std::string s = obj.str();
  auto fn = [](auto f) { return Value::function(f); };
  if (name == "strip") return fn([s](const CallArgs& a) { return Value::string(strip_chars(s, a, true, true)); });
  if (name == "lstrip") return fn([s](const CallArgs& a) { return Value::string(strip_chars(s, a, true, false)); });
  if (name == "rstrip") return fn([s](const CallArgs& a) { return Value::string(strip_chars(s, a, false, true)); });
  if (name == "split") return fn([s](const CallArgs& a) { return str_split(s, a); });
  if (name == "startswith") return fn([s](const CallArgs& a) { return Value::boolean(!a.positional.empty() && affix_match(s, a.positional[0], true)); });
  if (name == "endswith") return fn([s](const CallArgs& a) { return Value::boolean(!a.positional.empty() && affix_match(s, a.positional[0], false)); });
  if (name == "upper") return fn([s](const CallArgs&) { return Value::string(ascii_upper(s)); });
  if (name == "lower") return fn([s](const CallArgs&) { return Value::string(ascii_lower(s)); });
  if (name == "title") return fn([s](const CallArgs&) { return Value::string(ascii_title(s)); });
  if (name == "capitalize") return fn([s](const CallArgs&) { return Value::string(ascii_capitalize(s)); });
  if (name == "replace") {
    return fn([s](const CallArgs& a) {
      int64_t count = a.positional.size() > 2 && a.positional[2].kind == Kind::kInt ? a.positional[2].i : -1;
      return Value::string(replace_all(s, need_str(a, 0, "replace"), need_str(a, 1, "replace"), count));
    });
  }
  if (name == "find") return fn([s](const CallArgs& a) { auto p = s.find(need_str(a, 0, "find")); return Value::integer(p == std::string::npos ? -1 : static_cast<int64_t>(utf8_length(s.substr(0, p)))); });
  if (name == "count") return fn([s](const CallArgs& a) { std::string n = need_str(a, 0, "count"); int64_t c = 0; if (!n.empty()) for (size_t p = s.find(n); p != std::string::npos; p = s.find(n, p + n.size())) ++c; return Value::integer(c); });
  if (name == "join") {
    return fn([s](const CallArgs& a) {
      std::string out;
      if (!a.positional.empty()) {
        List items = iterate(a.positional[0], 0);
        // Chained joins grow geometrically (fuzz_jinja: a 621-byte template asked for > 4 GB).
        if (items.size() > 1 && s.size() > (size_t{64} << 20) / (items.size() - 1))
          throw TemplateError(0, "join() result larger than 64 MiB");
        for (size_t k = 0; k < items.size(); ++k) {
          out += (k ? s : "") + to_str(items[k]);
          if (out.size() > (size_t{64} << 20)) throw TemplateError(0, "join() result larger than 64 MiB");
        }
      }
      return Value::string(out);
    });
  }
  if (name == "format") {
    return fn([s](const CallArgs& a) {
      std::string out;
      size_t next = 0;
      for (size_t k = 0; k < s.size(); ++k) {
        if (s[k] == '{' && k + 1 < s.size() && s[k + 1] == '}') {
          if (next < a.positional.size()) out += to_str(a.positional[next++]);
          ++k;
        } else {
          out += s[k];
        }
      }
      return Value::string(out);
    });
  }
  return Value::undefined();
}

Value dict_method(const Value& obj, const std::string& name) {
  auto d = obj.dict;
  if (name == "items") {
    return Value::function([d](const CallArgs&) {
      List out;
      for (const auto& [k, v] : d->items) {
        Value t = Value::make_list({Value::string(k), v});
        t.is_tuple = true;
        out.push_back(t);
      }
      return Value::make_list(std::move(out));
    });
  }
  if (name == "keys") {
    return Value::function([d](const CallArgs&) {
      List out;
      for (const auto& kv : d->items) out.push_back(Value::string(kv.first));
      return Value::make_list(std::move(out));
    });
  }
  if (name == "values") {
    return Value::function([d](const CallArgs&) {
      List out;
      for (const auto& kv : d->items) out.push_back(kv.second);
      return Value::make_list(std::move(out));
    });
  }
  if (name == "get") {
    return Value::function([d](const CallArgs& a) {
      if (a.positional.empty() || !a.positional[0].is_string()) return Value::none();
      const Value* v = d->find(a.positional[0].str());
      if (v) return *v;
      return a.positional.size() > 1 ? a.positional[1] : Value::none();
    });
  }
  return Value::undefined();
}

int64_t index_of(int64_t k, int64_t n) { return k < 0 ? k + n : k; }

}  // namespace

Value get_attr(const Value& obj, const std::string& name, int line) {
  switch (obj.kind) {
    case Kind::kUndefined:
      throw TemplateError(line, "'" + name + "' of an undefined value");
    case Kind::kNone:
      throw TemplateError(line, "'None' has no attribute '" + name + "'");
    case Kind::kString:
      return string_method(obj, name);
    case Kind::kDict: {
      if (!obj.is_namespace) {
        Value m = dict_method(obj, name);
        if (!m.is_undefined()) return m;
      }
      const Value* v = obj.dict->find(name);
      return v ? *v : Value::undefined();
    }
    default:
      return Value::undefined();
  }
}

Value get_item(const Value& obj, const Value& key, int line) {
  switch (obj.kind) {
    case Kind::kUndefined:
      throw TemplateError(line, "item of an undefined value");
    case Kind::kNone:
      throw TemplateError(line, "'None' is not subscriptable");
    case Kind::kDict: {
      if (key.is_string()) {
        const Value* v = obj.dict->find(key.str());
        if (v) return *v;
        return obj.is_namespace ? Value::undefined() : dict_method(obj, key.str());
      }
      return Value::undefined();
    }
    case Kind::kList: {
      if (key.kind != Kind::kInt) return Value::undefined();
      int64_t n = static_cast<int64_t>(obj.list->size());
      int64_t k = index_of(key.i, n);
      return (k >= 0 && k < n) ? (*obj.list)[static_cast<size_t>(k)] : Value::undefined();
    }
    case Kind::kString: {
      if (key.kind == Kind::kString) return string_method(obj, key.str());
      if (key.kind != Kind::kInt) return Value::undefined();
      std::vector<std::string> chars = utf8_chars(obj.str());
      int64_t n = static_cast<int64_t>(chars.size());
      int64_t k = index_of(key.i, n);
      return (k >= 0 && k < n) ? Value::string(chars[static_cast<size_t>(k)]) : Value::undefined();
    }
    default:
      return Value::undefined();
  }
}

Value get_slice(const Value& obj, const Value* start, const Value* stop, const Value* step,
                int line) {
  bool is_str = obj.is_string();
  if (!is_str && obj.kind != Kind::kList) throw TemplateError(line, "cannot slice this value");
  std::vector<std::string> chars;
  if (is_str) chars = utf8_chars(obj.str());
  int64_t n = static_cast<int64_t>(is_str ? chars.size() : obj.list->size());
  auto present = [](const Value* v) { return v && v->kind == Kind::kInt; };
  int64_t st = present(step) ? step->i : 1;
  if (st == 0) throw TemplateError(line, "slice step cannot be zero");
  auto clamp = [&](const Value* v, int64_t def, int64_t lo, int64_t hi) {
    if (!present(v)) return def;
    int64_t k = v->i < 0 ? v->i + n : v->i;
    return std::clamp(k, lo, hi);
  };
  int64_t b = st > 0 ? clamp(start, 0, 0, n) : clamp(start, n - 1, -1, n - 1);
  int64_t e = st > 0 ? clamp(stop, n, 0, n) : clamp(stop, -1, -1, n - 1);
  List items;
  std::string s;
  for (int64_t k = b; st > 0 ? k < e : k > e; k += st) {
    if (is_str) {
      s += chars[static_cast<size_t>(k)];
    } else {
      items.push_back((*obj.list)[static_cast<size_t>(k)]);
    }
  }
  return is_str ? Value::string(s) : Value::make_list(std::move(items));
}

List iterate(const Value& v, int line) {
  switch (v.kind) {
    case Kind::kUndefined:
      return {};
    case Kind::kList:
      return *v.list;
    case Kind::kDict: {
      List keys;
      for (const auto& kv : v.dict->items) keys.push_back(Value::string(kv.first));
      return keys;
    }
    case Kind::kString: {
      List out;
      for (auto& c : utf8_chars(v.str())) out.push_back(Value::string(c));
      return out;
    }
    default:
      throw TemplateError(line, "value is not iterable: " + to_repr(v));
  }
}

}  // namespace servebench::jinja
