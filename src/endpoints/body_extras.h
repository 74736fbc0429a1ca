// BodyExtras: extra members of a request body (--extra-inputs, an input row's `extra`), parsed
// and rendered once before t0 so that no body is ever re-parsed on a worker thread. Members keep
// the order in which they were given; a key given twice keeps its first place and its last value
// (JSON object semantics, as Python's dict).
//
// Thread safety: immutable after parse(); shared read-only by all workers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace servebench::endpoints {

class BodyExtras {
 public:
  BodyExtras() = default;
  // `json_object` must be a JSON object ("" = no members). `what` names the input in errors,
  // e.g. "--extra-inputs".
  static Result<BodyExtras> parse(std::string_view json_object, std::string_view what);

  bool empty() const { return members_.empty(); }
  bool has(std::string_view key) const;
  // Appends `"key":value` for every member whose key `skip` does not have (null: none
  // skipped), each preceded by ',' unless *first (then *first becomes false).
  void append_members(std::string* out, bool* first, const BodyExtras* skip = nullptr) const;

 private:
  std::vector<std::pair<std::string, std::string>> members_;  // key, rendered "key":value
};

// Whether the key is set by either (the later may be null).
inline bool either_has(const BodyExtras& a, const BodyExtras* b, std::string_view key) {
  return a.has(key) || (b != nullptr && b->has(key));
}

}  // namespace servebench::endpoints
