#include "dataset/loaders/json_fields.h"

#include <cmath>

#include <fmt/format.h>

namespace servebench::dataset::parsers::fields {

Status only_keys(object obj, std::initializer_list<std::string_view> known, const Where& w) {
  for (auto field : obj) {
    bool ok = false;
    for (auto k : known) ok |= field.key == k;
    if (!ok) return w.fail(field.key, "unknown key (remove it; the format is strict)");
  }
  return {};
}

bool member(object obj, std::string_view key, element* out) {
  return obj[key].get(*out) == simdjson::SUCCESS && !out->is_null();
}

Result<std::string> string_field(object obj, std::string_view key, const Where& w, bool required) {
  element e;
  if (!member(obj, key, &e)) {
    if (required) return w.fail(key, "missing (add it)");
    return std::string();
  }
  std::string_view s;
  if (e.get(s) != simdjson::SUCCESS) return w.fail(key, "expected a string");
  return std::string(s);
}

Result<double> number_field(object obj, std::string_view key, const Where& w, bool required,
                            double fallback) {
  element e;
  if (!member(obj, key, &e)) {
    if (required) return w.fail(key, "missing (add it)");
    return fallback;
  }
  double v = 0;
  if (e.is_int64()) {
    v = static_cast<double>(int64_t(e));
  } else if (e.is_uint64()) {
    v = static_cast<double>(uint64_t(e));
  } else if (e.is_double()) {
    v = double(e);
  } else {
    return w.fail(key, "expected a number");
  }
  if (!std::isfinite(v)) return w.fail(key, "expected a finite number");
  return v;
}

Result<int64_t> int_field(object obj, std::string_view key, const Where& w, bool required,
                          int64_t fallback, int64_t min) {
  element e;
  if (!member(obj, key, &e)) {
    if (required) return w.fail(key, "missing (add it)");
    return fallback;
  }
  int64_t v = 0;
  if (!e.is_int64() || e.get(v) != simdjson::SUCCESS) {
    double d = 0;
    if (!e.is_double() || e.get(d) != simdjson::SUCCESS || d != std::floor(d) || std::fabs(d) > 9e15)
      return w.fail(key, fmt::format("expected a whole number >= {}", min));
    v = static_cast<int64_t>(d);
  }
  if (v < min) return w.fail(key, fmt::format("expected a whole number >= {}", min));
  return v;
}

Result<std::vector<int64_t>> int_list(object obj, std::string_view key, const Where& w) {
  std::vector<int64_t> out;
  element e;
  if (!member(obj, key, &e)) return out;
  array arr;
  if (e.get(arr) != simdjson::SUCCESS) return w.fail(key, "expected an array of integers");
  for (element v : arr) {
    int64_t id = 0;
    if (v.get(id) != simdjson::SUCCESS) return w.fail(key, "expected an array of integers");
    out.push_back(id);
  }
  return out;
}

Result<std::vector<std::string>> string_list(object obj, std::string_view key, const Where& w) {
  std::vector<std::string> out;
  element e;
  if (!member(obj, key, &e)) return out;
  array arr;
  if (e.get(arr) != simdjson::SUCCESS) return w.fail(key, "expected an array of strings");
  for (element v : arr) {
    std::string_view s;
    if (v.get(s) != simdjson::SUCCESS) return w.fail(key, "expected an array of strings");
    out.emplace_back(s);
  }
  return out;
}

Result<array> array_field(object obj, std::string_view key, const Where& w, bool required) {
  element e;
  array arr;
  if (!member(obj, key, &e)) {
    if (required) return w.fail(key, "missing (add it)");
    return arr;
  }
  if (e.get(arr) != simdjson::SUCCESS) return w.fail(key, "expected an array");
  return arr;
}

}  // namespace servebench::dataset::parsers::fields
