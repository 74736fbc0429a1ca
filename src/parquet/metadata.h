// Parquet file metadata (the footer): schema, row groups and column chunks, decoded from the
// Thrift compact protocol. Only the fields a reader of flat trace files needs are kept.
//
// Thread safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};
const char* physical_type_name(PhysicalType t);

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

// The logical meaning of a column, from logicalType or the older converted_type.
enum class LogicalKind {
  kNone,
  kString,  // UTF8 / STRING / ENUM / JSON
  kList,
  kMap,
  kTimestampMillis,
  kTimestampMicros,
  kTimestampNanos,
  kOther,
};

struct SchemaElement {
  std::string name;
  std::optional<PhysicalType> type;  // absent for groups
  int32_t type_length = 0;
  Repetition repetition = Repetition::kRequired;
  int32_t num_children = 0;
  LogicalKind logical = LogicalKind::kNone;
};

struct Statistics {
  std::optional<std::string> min_value;  // plain-encoded
  std::optional<std::string> max_value;
  std::optional<int64_t> null_count;
};

struct ColumnChunkMeta {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<std::string> path;
  int32_t codec = 0;
  int64_t num_values = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
  Statistics stats;
};

struct RowGroup {
  std::vector<ColumnChunkMeta> columns;
  int64_t num_rows = 0;
};

struct FileMetaData {
  std::vector<SchemaElement> schema;  // depth-first, schema[0] is the root
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::string created_by;
};

// Decodes the footer bytes (between the last row group and the length + "PAR1" trailer).
Result<FileMetaData> parse_file_metadata(std::string_view footer);

}  // namespace servebench::parquet
