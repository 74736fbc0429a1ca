// JsonLine: builds one flat JSON object quickly (no DOM), for the per-request record and
// ground-truth lines written from the event loops.
//
// Thread safety: a value type; one builder per line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "responses.h"

namespace servebench::mock {

class JsonLine {
 public:
  JsonLine() {
    out_.reserve(256);
    out_.push_back('{');
  }
  JsonLine& num(const char* key, int64_t v) {
    this->key(key);
    append_json_int(v, &out_);
    return *this;
  }
  JsonLine& str(const char* key, std::string_view v) {
    this->key(key);
    append_json_string(v, &out_);
    return *this;
  }
  JsonLine& boolean(const char* key, bool v) {
    this->key(key);
    out_.append(v ? "true" : "false");
    return *this;
  }
  JsonLine& null(const char* key) {
    this->key(key);
    out_.append("null");
    return *this;
  }
  // A pre-rendered JSON value.
  JsonLine& raw(const char* key, std::string_view json) {
    this->key(key);
    out_.append(json);
    return *this;
  }
  JsonLine& strings(const char* key, const std::vector<std::string>& v) {
    this->key(key);
    out_.push_back('[');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out_.push_back(',');
      append_json_string(v[i], &out_);
    }
    out_.push_back(']');
    return *this;
  }
  JsonLine& nums(const char* key, const std::vector<int64_t>& v) {
    this->key(key);
    out_.push_back('[');
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out_.push_back(',');
      append_json_int(v[i], &out_);
    }
    out_.push_back(']');
    return *this;
  }
  std::string finish() {
    out_.push_back('}');
    return std::move(out_);
  }

 private:
  void key(const char* k) {
    if (out_.size() > 1) out_.push_back(',');
    out_.push_back('"');
    out_.append(k);
    out_.append("\":");
  }
  std::string out_;
};

}  // namespace servebench::mock
