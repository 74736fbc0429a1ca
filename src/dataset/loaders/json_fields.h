// Internal to sb_dataset_loaders: strict field readers for the agent-trace parsers
// (weka_trace.cc, dag_jsonl.cc, sagemaker_capture.cc). Each failure is a Where::fail error
// naming the file, line and field. Not part of the dataset module's interface.
//
// Thread safety: pure functions.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/loaders/parsers.h"

namespace servebench::dataset::parsers::fields {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// Rejects keys outside `known` (the formats are strict: a typo is an error, not ignored).
Status only_keys(object obj, std::initializer_list<std::string_view> known, const Where& w);
// The member, or false when absent or null.
bool member(object obj, std::string_view key, element* out);
Result<std::string> string_field(object obj, std::string_view key, const Where& w, bool required);
// A finite number (integer or float); `fallback` when absent or null.
Result<double> number_field(object obj, std::string_view key, const Where& w, bool required,
                            double fallback);
// A whole number >= min (booleans rejected); `fallback` when absent or null.
Result<int64_t> int_field(object obj, std::string_view key, const Where& w, bool required,
                          int64_t fallback, int64_t min);
Result<std::vector<int64_t>> int_list(object obj, std::string_view key, const Where& w);
Result<std::vector<std::string>> string_list(object obj, std::string_view key, const Where& w);
Result<array> array_field(object obj, std::string_view key, const Where& w, bool required);

}  // namespace servebench::dataset::parsers::fields
