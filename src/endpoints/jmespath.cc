#include "endpoints/jmespath.h"

#include <cctype>
#include <charconv>

#include "endpoints/jmespath_eval.h"
#include "endpoints/parse_errors.h"

namespace servebench::endpoints {

namespace {

constexpr const char* kSubset =
    "supported: fields (a.b, \"quoted key\"), indexes ([0], [-1]) and [*] projections";

class Compiler {
 public:
  Compiler(std::string_view text, std::string_view what) : s_(text), what_(what) {}

  Status run(std::vector<JmesPath::Step>* out) {
    skip_space();
    if (at_end()) return fail("empty expression");
    if (auto st = first(out); !st) return st;
    for (;;) {
      skip_space();
      if (at_end()) return {};
      const char c = s_[pos_];
      if (c == '.') {
        ++pos_;
        skip_space();
        if (auto st = field(out); !st) return st;
      } else if (c == '[') {
        if (auto st = bracket(out); !st) return st;
      } else {
        return fail("unexpected '" + excerpt(std::string_view(&c, 1)) + "'");
      }
    }
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  void skip_space() {
    while (!at_end() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  Error fail_error(const std::string& why) const {
    return Error{ErrorCode::kInvalidArgument,
                 std::string(what_) + ": '" + excerpt(s_) + "' is not in the JMESPath subset (" +
                     why + " at offset " + std::to_string(pos_) + "); " + kSubset};
  }
  Status fail(const std::string& why) const { return tl::unexpected(fail_error(why)); }

  Status first(std::vector<JmesPath::Step>* out) {
    if (s_[pos_] == '[') return bracket(out);
    return field(out);
  }

  Status field(std::vector<JmesPath::Step>* out) {
    if (at_end()) return fail("a field name is missing");
    JmesPath::Step step;
    step.kind = JmesPath::StepKind::kField;
    const char c = s_[pos_];
    if (c == '"') {
      auto name = quoted();
      if (!name) return tl::unexpected(name.error());
      step.field = std::move(*name);
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (!at_end() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
      step.field = std::string(s_.substr(start, pos_ - start));
    } else {
      return fail("a field name cannot start with '" + excerpt(std::string_view(&c, 1)) + "'");
    }
    out->push_back(std::move(step));
    return {};
  }

  // A quoted identifier with JSON string escapes (\uXXXX for the basic plane and surrogate pairs).
  Result<std::string> quoted() {
    ++pos_;  // opening quote
    std::string name;
    while (!at_end()) {
      const char c = s_[pos_++];
      if (c == '"') return name;
      if (static_cast<unsigned char>(c) < 0x20)
        return tl::unexpected(fail_error("control character in a quoted name"));
      if (c != '\\') {
        name.push_back(c);
        continue;
      }
      if (at_end()) break;
      const char e = s_[pos_++];
      switch (e) {
        case '"':
          name.push_back('"');
          break;
        case '\\':
          name.push_back('\\');
          break;
        case '/':
          name.push_back('/');
          break;
        case 'b':
          name.push_back('\b');
          break;
        case 'f':
          name.push_back('\f');
          break;
        case 'n':
          name.push_back('\n');
          break;
        case 'r':
          name.push_back('\r');
          break;
        case 't':
          name.push_back('\t');
          break;
        case 'u': {
          auto cp = hex4();
          if (!cp) return tl::unexpected(cp.error());
          uint32_t code = *cp;
          if (code >= 0xD800 && code <= 0xDBFF) {
            if (s_.substr(pos_, 2) != "\\u")
              return tl::unexpected(fail_error("unpaired surrogate"));
            pos_ += 2;
            auto low = hex4();
            if (!low) return tl::unexpected(low.error());
            if (*low < 0xDC00 || *low > 0xDFFF)
              return tl::unexpected(fail_error("unpaired surrogate"));
            code = 0x10000 + ((code - 0xD800) << 10) + (*low - 0xDC00);
          } else if (code >= 0xDC00 && code <= 0xDFFF) {
            return tl::unexpected(fail_error("unpaired surrogate"));
          }
          append_utf8(code, &name);
          break;
        }
        default:
          return tl::unexpected(
              fail_error("unknown escape '\\" + excerpt(std::string_view(&e, 1)) + "'"));
      }
    }
    return tl::unexpected(fail_error("unterminated quoted name"));
  }

  Result<uint32_t> hex4() {
    if (pos_ + 4 > s_.size()) return tl::unexpected(fail_error("short \\u escape"));
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<uint32_t>(h - 'A' + 10);
      else
        return tl::unexpected(fail_error("bad \\u escape"));
    }
    return v;
  }

  static void append_utf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // "[*]", "[N]" or "[-N]".
  Status bracket(std::vector<JmesPath::Step>* out) {
    ++pos_;  // '['
    skip_space();
    if (at_end()) return fail("unterminated '['");
    JmesPath::Step step;
    if (s_[pos_] == '*') {
      ++pos_;
      step.kind = JmesPath::StepKind::kProject;
    } else if (s_[pos_] == '-' || std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      const size_t start = pos_;
      if (s_[pos_] == '-') ++pos_;
      while (!at_end() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      int64_t v = 0;
      const char* b = s_.data() + start;
      const char* e = s_.data() + pos_;
      auto [p, ec] = std::from_chars(b, e, v);
      if (ec != std::errc() || p != e) return fail("bad index");
      step.kind = JmesPath::StepKind::kIndex;
      step.index = v;
    } else if (s_[pos_] == ']') {
      return fail("'[]' flatten is not supported");
    } else if (s_[pos_] == '?') {
      return fail("filter expressions are not supported");
    } else {
      return fail("expected '*' or an index");
    }
    skip_space();
    if (!at_end() && s_[pos_] == ':') return fail("slices are not supported");
    if (at_end() || s_[pos_] != ']') return fail("expected ']'");
    ++pos_;
    out->push_back(std::move(step));
    return {};
  }

  std::string_view s_;
  std::string_view what_;
  size_t pos_ = 0;
};

using simdjson::dom::element;

JmesValue eval(const std::vector<JmesPath::Step>& steps, size_t i, element v) {
  JmesValue out;
  if (v.is_null()) return out;
  if (i == steps.size()) {
    out.kind = JmesValue::Kind::kElement;
    out.element = v;
    return out;
  }
  const JmesPath::Step& s = steps[i];
  switch (s.kind) {
    case JmesPath::StepKind::kField: {
      simdjson::dom::object obj;
      if (v.get_object().get(obj) != simdjson::SUCCESS) return out;
      element child;
      if (obj.at_key(s.field).get(child) != simdjson::SUCCESS) return out;
      return eval(steps, i + 1, child);
    }
    case JmesPath::StepKind::kIndex: {
      simdjson::dom::array arr;
      if (v.get_array().get(arr) != simdjson::SUCCESS) return out;
      const int64_t n = static_cast<int64_t>(arr.size());
      const int64_t at = s.index < 0 ? n + s.index : s.index;
      if (at < 0 || at >= n) return out;
      element child;
      if (arr.at(static_cast<size_t>(at)).get(child) != simdjson::SUCCESS) return out;
      return eval(steps, i + 1, child);
    }
    case JmesPath::StepKind::kProject: {
      simdjson::dom::array arr;
      if (v.get_array().get(arr) != simdjson::SUCCESS) return out;
      out.kind = JmesValue::Kind::kList;
      for (element item : arr) {
        JmesValue r = eval(steps, i + 1, item);
        if (!r.is_null()) out.items.push_back(std::move(r));
      }
      return out;
    }
  }
  return out;
}

}  // namespace

Result<JmesPath> JmesPath::compile(std::string_view expression, std::string_view what) {
  JmesPath p;
  p.expression_ = std::string(expression);
  Compiler c(p.expression_, what);
  if (auto st = c.run(&p.steps_); !st) return tl::unexpected(st.error());
  return p;
}

Result<std::string> JmesPath::search_json(std::string_view json) const {
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS)
    return make_error(ErrorCode::kInvalidArgument, "not valid JSON");
  std::string out;
  jmes_to_json(jmes_search(*this, root), &out);
  return out;
}

JmesValue jmes_search(const JmesPath& path, element root) { return eval(path.steps(), 0, root); }

void jmes_to_json(const JmesValue& value, std::string* out) {
  switch (value.kind) {
    case JmesValue::Kind::kNull:
      out->append("null");
      return;
    case JmesValue::Kind::kElement:
      out->append(simdjson::minify(value.element));
      return;
    case JmesValue::Kind::kList:
      out->push_back('[');
      for (size_t i = 0; i < value.items.size(); ++i) {
        if (i) out->push_back(',');
        jmes_to_json(value.items[i], out);
      }
      out->push_back(']');
      return;
  }
}

}  // namespace servebench::endpoints
