// ParquetFile: a reader for flat Parquet files, column at a time, returning typed vectors.
//
// Supported: required/optional primitive columns (BOOLEAN, INT32, INT64, FLOAT, DOUBLE,
// BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) and lists of one primitive (the standard 3-level LIST and
// the legacy 2-level repeated field); data pages v1 and v2 and dictionary pages; the encodings
// of encodings.h; the codecs of codecs.h. Anything else (structs, maps, lists of lists, INT96,
// LZ4, BROTLI, encryption) is an error naming the column and the feature, returned when that
// column is read, so files with extra exotic columns still open.
//
// Thread safety: read_column is const and may run on several threads at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "parquet/encodings.h"
#include "parquet/metadata.h"

namespace servebench::parquet {

struct ReadLimits {
  uint64_t max_values_per_column = uint64_t{1} << 31;  // level entries, all row groups
  uint64_t max_page_bytes = uint64_t{1} << 30;         // uncompressed size of one page
};

// A top-level field of the schema.
struct ColumnInfo {
  std::string name;
  PhysicalType type = PhysicalType::kInt32;
  int32_t type_length = 0;
  LogicalKind logical = LogicalKind::kNone;  // of the values (the element, for lists)
  bool optional = false;
  bool is_list = false;
  int16_t max_def = 0;
  int16_t max_rep = 0;
  int16_t list_def = 0;       // lists: definition level of the repeated node
  size_t leaf = 0;            // index of its (first) leaf column chunk in every row group
  std::string unsupported;    // non-empty: why it cannot be read ("nested LIST types ...")
};

// One column, one entry per row. Flat columns: values.<kind>[row] (null rows hold 0 or "")
// and valid[row]. Lists: row r's elements are [list_offsets[r], list_offsets[r+1]) of
// values/element_valid, valid[r] false for a null list (which has no elements).
struct Column {
  ColumnInfo info;
  ValueBuffer values;
  std::vector<uint8_t> valid;
  std::vector<uint64_t> list_offsets;
  std::vector<uint8_t> element_valid;

  size_t rows() const { return valid.size(); }
};

class ParquetFile {
 public:
  // Parses the footer of a whole file held in memory. `name` is used in error messages.
  static Result<ParquetFile> open(std::string bytes, std::string name, ReadLimits limits = {});

  const std::vector<ColumnInfo>& columns() const { return columns_; }
  const ColumnInfo* find(std::string_view name) const;
  int64_t num_rows() const { return meta_.num_rows; }
  const FileMetaData& metadata() const { return meta_; }

  // Reads a whole column over every row group. Errors name the file and the column.
  Result<Column> read_column(std::string_view name) const;

 private:
  std::string bytes_;
  std::string name_;
  ReadLimits limits_;
  FileMetaData meta_;
  std::vector<ColumnInfo> columns_;
};

}  // namespace servebench::parquet
