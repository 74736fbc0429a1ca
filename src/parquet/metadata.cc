#include "parquet/metadata.h"

#include <fmt/format.h>

#include "parquet/thrift_compact.h"

namespace servebench::parquet {
namespace {

using T = ThriftType;

bool valid_physical(int32_t v) { return v >= 0 && v <= 7; }

// LogicalType union: one field set; TIMESTAMP carries a TimeUnit union.
LogicalKind read_logical_type(CompactReader& r) {
  LogicalKind kind = LogicalKind::kOther;
  r.read_struct([&](int16_t id, T t) {
    if (t != T::kStruct) return r.skip(t);
    switch (id) {
      case 1:
      case 4:
      case 12:
        kind = LogicalKind::kString;  // STRING, ENUM, JSON
        return r.skip(t);
      case 2:
        kind = LogicalKind::kMap;
        return r.skip(t);
      case 3:
        kind = LogicalKind::kList;
        return r.skip(t);
      case 8:
        r.read_struct([&](int16_t tid, T tt) {
          if (tid != 2 || tt != T::kStruct) return r.skip(tt);
          r.read_struct([&](int16_t unit, T ut) {
            kind = unit == 1   ? LogicalKind::kTimestampMillis
                   : unit == 2 ? LogicalKind::kTimestampMicros
                   : unit == 3 ? LogicalKind::kTimestampNanos
                               : LogicalKind::kOther;
            r.skip(ut);
          });
        });
        return;
      default:
        return r.skip(t);
    }
  });
  return kind;
}

LogicalKind from_converted(int32_t c) {
  switch (c) {
    case 0:
    case 4:
    case 19:
      return LogicalKind::kString;
    case 1:
    case 2:
      return LogicalKind::kMap;
    case 3:
      return LogicalKind::kList;
    case 9:
      return LogicalKind::kTimestampMillis;
    case 10:
      return LogicalKind::kTimestampMicros;
    default:
      return LogicalKind::kOther;
  }
}

SchemaElement read_schema_element(CompactReader& r) {
  SchemaElement e;
  std::optional<LogicalKind> logical, converted;
  r.read_struct([&](int16_t id, T t) {
    if (id == 1 && t == T::kI32) {
      const int32_t v = r.read_i32();
      if (valid_physical(v)) e.type = static_cast<PhysicalType>(v);
      else r.fail(fmt::format("unknown physical type {}", v));
    } else if (id == 2 && t == T::kI32) {
      e.type_length = r.read_i32();
    } else if (id == 3 && t == T::kI32) {
      const int32_t v = r.read_i32();
      if (v < 0 || v > 2) r.fail(fmt::format("unknown repetition {}", v));
      e.repetition = static_cast<Repetition>(v);
    } else if (id == 4 && t == T::kBinary) {
      e.name = std::string(r.read_binary());
    } else if (id == 5 && t == T::kI32) {
      e.num_children = r.read_i32();
    } else if (id == 6 && t == T::kI32) {
      converted = from_converted(r.read_i32());
    } else if (id == 10 && t == T::kStruct) {
      logical = read_logical_type(r);
    } else {
      r.skip(t);
    }
  });
  e.logical = logical ? *logical : converted.value_or(LogicalKind::kNone);
  return e;
}

Statistics read_statistics(CompactReader& r) {
  Statistics s;
  std::optional<std::string> old_min, old_max;
  r.read_struct([&](int16_t id, T t) {
    if (t == T::kBinary && (id == 1 || id == 2 || id == 5 || id == 6)) {
      std::string v(r.read_binary());
      (id == 1 ? old_max : id == 2 ? old_min : id == 5 ? s.max_value : s.min_value) = std::move(v);
    } else if (id == 3 && t == T::kI64) {
      s.null_count = r.read_i64();
    } else {
      r.skip(t);
    }
  });
  // min_value/max_value (sort-order aware) win over the deprecated min/max.
  if (!s.min_value) s.min_value = std::move(old_min);
  if (!s.max_value) s.max_value = std::move(old_max);
  return s;
}

ColumnChunkMeta read_column_meta(CompactReader& r) {
  ColumnChunkMeta m;
  r.read_struct([&](int16_t id, T t) {
    if (id == 1 && t == T::kI32) {
      const int32_t v = r.read_i32();
      if (valid_physical(v)) m.type = static_cast<PhysicalType>(v);
      else r.fail(fmt::format("unknown physical type {}", v));
    } else if (id == 3 && t == T::kList) {
      T elem;
      uint32_t n;
      r.read_list_header(&elem, &n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        if (elem == T::kBinary) m.path.emplace_back(r.read_binary());
        else r.skip(elem);
      }
    } else if (id == 4 && t == T::kI32) {
      m.codec = r.read_i32();
    } else if (id == 5 && t == T::kI64) {
      m.num_values = r.read_i64();
    } else if (id == 7 && t == T::kI64) {
      m.total_compressed_size = r.read_i64();
    } else if (id == 9 && t == T::kI64) {
      m.data_page_offset = r.read_i64();
    } else if (id == 11 && t == T::kI64) {
      m.dictionary_page_offset = r.read_i64();
    } else if (id == 12 && t == T::kStruct) {
      m.stats = read_statistics(r);
    } else {
      r.skip(t);
    }
  });
  return m;
}

RowGroup read_row_group(CompactReader& r) {
  RowGroup g;
  r.read_struct([&](int16_t id, T t) {
    if (id == 1 && t == T::kList) {
      T elem;
      uint32_t n;
      r.read_list_header(&elem, &n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        if (elem != T::kStruct) {
          r.skip(elem);
          continue;
        }
        ColumnChunkMeta cc;
        bool has_meta = false;
        r.read_struct([&](int16_t cid, T ct) {
          if (cid == 1 && ct == T::kBinary) {
            r.read_binary();
            r.fail("column chunks in other files (file_path) are not supported");
          } else if (cid == 3 && ct == T::kStruct) {
            cc = read_column_meta(r);
            has_meta = true;
          } else {
            r.skip(ct);
          }
        });
        if (!has_meta) r.fail("a column chunk has no metadata");
        g.columns.push_back(std::move(cc));
      }
    } else if (id == 3 && t == T::kI64) {
      g.num_rows = r.read_i64();
    } else {
      r.skip(t);
    }
  });
  return g;
}

}  // namespace

const char* physical_type_name(PhysicalType t) {
  static constexpr const char* kNames[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                           "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  const auto i = static_cast<int32_t>(t);
  return i >= 0 && i < 8 ? kNames[i] : "unknown";
}

Result<FileMetaData> parse_file_metadata(std::string_view footer) {
  CompactReader r(footer);
  FileMetaData md;
  r.read_struct([&](int16_t id, T t) {
    if ((id == 2 || id == 4) && t == T::kList) {
      T elem;
      uint32_t n;
      r.read_list_header(&elem, &n);
      for (uint32_t i = 0; i < n && r.ok(); ++i) {
        if (elem != T::kStruct) r.skip(elem);
        else if (id == 2) md.schema.push_back(read_schema_element(r));
        else md.row_groups.push_back(read_row_group(r));
      }
    } else if (id == 3 && t == T::kI64) {
      md.num_rows = r.read_i64();
    } else if (id == 6 && t == T::kBinary) {
      md.created_by = std::string(r.read_binary());
    } else {
      r.skip(t);
    }
  });
  if (!r.ok())
    return make_error(ErrorCode::kParse, fmt::format("corrupt footer ({})", r.error()));
  if (md.schema.empty()) return make_error(ErrorCode::kParse, "corrupt footer (no schema)");
  if (md.num_rows < 0) return make_error(ErrorCode::kParse, "corrupt footer (negative row count)");
  return md;
}

}  // namespace servebench::parquet
