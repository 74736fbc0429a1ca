#include "yaml_config/yaml_node.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace servebench::yaml_config {

std::string snake_case(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c >= 'A' && c <= 'Z') {
      if (!out.empty()) out.push_back('_');
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else {
      out.push_back(c == '-' ? '_' : c);
    }
  }
  return out;
}

std::string number_text(double v) {
  if (std::isinf(v)) return "inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{}", v);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cur = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1)});
      prev = cur;
    }
  }
  return row[b.size()];
}

std::string Reader::where(const YAML::Node& n) const {
  const YAML::Mark m = n.Mark();
  if (m.line < 0) return file_;
  return fmt::format("{}:{}", file_, m.line + 1);
}

Error Reader::fail(const YAML::Node& n, const std::string& msg) const {
  return Error{ErrorCode::kInvalidArgument, fmt::format("{}: {}", where(n), msg)};
}

Result<std::vector<std::pair<std::string, YAML::Node>>> Reader::entries(
    const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed) const {
  if (!map.IsMap())
    return make_error(fail(map, fmt::format("{} must be a mapping of keys to values", path)));
  std::vector<std::pair<std::string, YAML::Node>> out;
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string raw = it->first.as<std::string>();
    const std::string key = snake_case(raw);
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) {
      std::string best;
      size_t best_d = 3;
      for (const auto& a : allowed)
        if (size_t d = edit_distance(key, a); d < best_d) best_d = d, best = a;
      const std::string hint = best.empty() ? fmt::format("known keys: {}", fmt::join(allowed, ", "))
                                            : fmt::format("did you mean '{}'?", best);
      return make_error(fail(it->first, fmt::format("unknown key '{}' under {} ({})", raw, path, hint)));
    }
    out.emplace_back(key, it->second);
  }
  return out;
}

Result<std::string> Reader::substitute(const YAML::Node& n, const std::string& text) const {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "${") == 0) {
      const size_t end = text.find('}', i);
      if (end == std::string::npos)
        return make_error(fail(n, fmt::format("unclosed '${{' in '{}'; write ${{VAR}} or ${{VAR:default}}", text)));
      const std::string body = text.substr(i + 2, end - i - 2);
      const size_t colon = body.find(':');
      const std::string name = body.substr(0, colon);
      if (const char* env = std::getenv(name.c_str()); env != nullptr) {
        out += env;
      } else if (auto v = vars_.find(name); v != vars_.end()) {
        out += v->second;
      } else if (colon != std::string::npos) {
        out += body.substr(colon + 1);
      } else {
        return make_error(fail(n, fmt::format("${{{}}} is not set; export {} or write ${{{}:default}}",
                                              name, name, name)));
      }
      i = end + 1;
    } else if (text.compare(i, 2, "{{") == 0) {
      const size_t end = text.find("}}", i);
      if (end == std::string::npos)
        return make_error(fail(n, fmt::format("unclosed '{{{{' in '{}'", text)));
      std::string name = text.substr(i + 2, end - i - 2);
      while (!name.empty() && name.front() == ' ') name.erase(0, 1);
      while (!name.empty() && name.back() == ' ') name.pop_back();
      auto v = vars_.find(name);
      if (v == vars_.end())
        return make_error(fail(n, fmt::format("'{{{{ {} }}}}' names no entry of variables: (only plain names are supported)", name)));
      out += v->second;
      i = end + 2;
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

Result<std::string> Reader::str(const YAML::Node& n, const std::string& path) const {
  if (!n.IsScalar()) return make_error(fail(n, fmt::format("{} must be a single value", path)));
  return substitute(n, n.Scalar());
}

Result<double> Reader::number(const YAML::Node& n, const std::string& path) const {
  auto s = str(n, path);
  if (!s) return make_error(s.error());
  char* end = nullptr;
  const double v = std::strtod(s->c_str(), &end);
  if (s->empty() || *end != '\0' || !std::isfinite(v))
    return make_error(fail(n, fmt::format("{} must be a number, got '{}'", path, *s)));
  return v;
}

Result<long long> Reader::integer(const YAML::Node& n, const std::string& path, long long min) const {
  auto s = str(n, path);
  if (!s) return make_error(s.error());
  char* end = nullptr;
  const long long v = std::strtoll(s->c_str(), &end, 10);
  if (s->empty() || *end != '\0' || v < min)
    return make_error(fail(n, fmt::format("{} must be an integer >= {}, got '{}'", path, min, *s)));
  return v;
}

Result<bool> Reader::boolean(const YAML::Node& n, const std::string& path) const {
  auto s = str(n, path);
  if (!s) return make_error(s.error());
  if (*s == "true" || *s == "True" || *s == "yes" || *s == "on") return true;
  if (*s == "false" || *s == "False" || *s == "no" || *s == "off") return false;
  return make_error(fail(n, fmt::format("{} must be true or false, got '{}'", path, *s)));
}

Result<double> parse_duration_s(const std::string& text) {
  if (text == "inf") return INFINITY;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const std::string unit(end);
  double scale = -1;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "ms") scale = 1e-3;
  else if (unit == "m" || unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  if (text.empty() || end == text.c_str() || scale < 0 || !(v >= 0))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("'{}' is not a duration; write seconds or 250ms, 30s, 5m, 1h", text));
  return v * scale;
}

Result<double> Reader::duration_s(const YAML::Node& n, const std::string& path) const {
  auto s = str(n, path);
  if (!s) return make_error(s.error());
  auto d = parse_duration_s(*s);
  if (!d) return make_error(fail(n, fmt::format("{}: {}", path, d.error().message)));
  return *d;
}

void Reader::add(std::vector<FlagArg>* out, const YAML::Node& n, std::string flag, std::string value) const {
  out->push_back(FlagArg{std::move(flag), std::move(value), true, where(n)});
}

void Reader::add_switch(std::vector<FlagArg>* out, const YAML::Node& n, std::string flag) const {
  out->push_back(FlagArg{std::move(flag), "", false, where(n)});
}

}  // namespace servebench::yaml_config
