// Test helper: a decoded column as JSON in the shape scripts/parquet/make_fixtures.py dumps
// (null for nulls, lists as arrays, binary as hex, timestamps as integers).
#pragma once

#include <nlohmann/json.hpp>

#include "parquet/reader.h"

namespace servebench::parquet::testing {

nlohmann::json column_json(const Column& c);

}  // namespace servebench::parquet::testing
