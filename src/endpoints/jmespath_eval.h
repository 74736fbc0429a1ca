// Evaluation of a compiled JmesPath (jmespath.h) on a simdjson DOM document. Internal to
// src/endpoints/ (it names simdjson types): the template and raw response parsers call it once
// per response body or streamed event.
//
// Thread safety: pure functions; the elements must stay valid (their parser not reused) while a
// result is in use.
#pragma once

#include <simdjson.h>

#include <string>
#include <vector>

#include "endpoints/jmespath.h"

namespace servebench::endpoints {

// A search result: nothing (null), one element of the document, or the list a projection made.
struct JmesValue {
  enum class Kind { kNull, kElement, kList };
  Kind kind = Kind::kNull;
  simdjson::dom::element element;
  std::vector<JmesValue> items;  // kList

  bool is_null() const { return kind == Kind::kNull; }
};

JmesValue jmes_search(const JmesPath& path, simdjson::dom::element root);

// Appends the result as compact JSON ("null" for nothing).
void jmes_to_json(const JmesValue& value, std::string* out);

}  // namespace servebench::endpoints
