// JmesPath: the subset of JMESPath (https://jmespath.org/specification.html) that response-field
// selectors use (`--extra-inputs response_field:...` of the template and raw types):
//
//   field            an identifier: [A-Za-z_][A-Za-z0-9_]*, or a quoted identifier "any text"
//                    (JSON string escapes); on a non-object, or a missing key, the result is null
//   a.b.c            sub-expressions: each field is looked up in the result of the previous one
//   [N], [-N]        index into an array (negative counts from the end); out of range or a
//                    non-array gives null
//   [*]              list wildcard projection: the rest of the expression is applied to every
//                    element of the array and the non-null results are collected in a list
//                    (nested projections give nested lists); on a non-array the result is null
//
// Whitespace is allowed between tokens. Anything else (slices, `.*`, `[]` flatten, filters,
// multi-selects, pipes, functions, literals) is a compile error that names the supported subset.
//
// Thread safety: a compiled JmesPath is immutable and may be shared by all threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::endpoints {

class JmesPath {
 public:
  enum class StepKind { kField, kIndex, kProject };
  struct Step {
    StepKind kind = StepKind::kField;
    std::string field;  // kField
    int64_t index = 0;  // kIndex
  };

  // `what` names the input in errors (e.g. "--extra-inputs response_field").
  static Result<JmesPath> compile(std::string_view expression, std::string_view what);

  const std::string& expression() const { return expression_; }
  const std::vector<Step>& steps() const { return steps_; }

  // Evaluates the expression on a JSON document and returns the result as compact JSON text
  // ("null" when nothing matched). Set-up and tests only: response parsers evaluate on their
  // parsed document (jmespath_eval.h).
  Result<std::string> search_json(std::string_view json) const;

 private:
  std::string expression_;
  std::vector<Step> steps_;
};

}  // namespace servebench::endpoints
