// Internal to sb_parquet: turns the flattened schema of the footer into top-level columns.
#pragma once

#include <vector>

#include "core/result.h"
#include "parquet/metadata.h"
#include "parquet/reader.h"

namespace servebench::parquet {

// One ColumnInfo per top-level field, with its levels and leaf index. Unsupported shapes are
// kept with `unsupported` set; a schema that does not add up (child counts, leaf counts that
// differ from the row groups') is an error.
Result<std::vector<ColumnInfo>> build_columns(const FileMetaData& meta);

}  // namespace servebench::parquet
