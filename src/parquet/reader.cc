#include "parquet/reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "parquet/codecs.h"
#include "parquet/schema.h"
#include "parquet/thrift_compact.h"

namespace servebench::parquet {
namespace {

using T = ThriftType;

struct PageHeader {
  int32_t type = -1;  // 0 data v1, 2 dictionary, 3 data v2
  int64_t uncompressed_size = -1;
  int64_t compressed_size = -1;
  int64_t num_values = 0;
  int32_t encoding = 0;
  int32_t def_encoding = 3;
  int32_t rep_encoding = 3;
  int64_t def_bytes = 0;  // v2
  int64_t rep_bytes = 0;  // v2
  bool v2_compressed = true;
};

void read_data_header(CompactReader& r, PageHeader* h, bool v2) {
  r.read_struct([&](int16_t id, T t) {
    if (t != T::kI32 && !(v2 && id == 7)) return r.skip(t);
    if (v2 && id == 7) {
      h->v2_compressed = t == T::kBoolTrue;
      if (t != T::kBoolTrue && t != T::kBoolFalse) r.skip(t);
      return;
    }
    const int32_t v = r.read_i32();
    if (id == 1) h->num_values = v;
    else if (!v2 && id == 2) h->encoding = v;
    else if (!v2 && id == 3) h->def_encoding = v;
    else if (!v2 && id == 4) h->rep_encoding = v;
    else if (v2 && id == 4) h->encoding = v;
    else if (v2 && id == 5) h->def_bytes = v;
    else if (v2 && id == 6) h->rep_bytes = v;
  });
}

PageHeader read_page_header(CompactReader& r) {
  PageHeader h;
  r.read_struct([&](int16_t id, T t) {
    if (id == 1 && t == T::kI32) h.type = r.read_i32();
    else if (id == 2 && t == T::kI32) h.uncompressed_size = r.read_i32();
    else if (id == 3 && t == T::kI32) h.compressed_size = r.read_i32();
    else if ((id == 5 || id == 8) && t == T::kStruct) read_data_header(r, &h, id == 8);
    else if (id == 7 && t == T::kStruct) {
      r.read_struct([&](int16_t did, T dt) {
        if (dt != T::kI32) return r.skip(dt);
        const int32_t v = r.read_i32();
        if (did == 1) h.num_values = v;
        else if (did == 2) h.encoding = v;
      });
    } else r.skip(t);
  });
  return h;
}

void append_null(PhysicalType t, ValueBuffer* out) {
  switch (t) {
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: out->doubles.push_back(0); break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: out->offsets.push_back(out->bytes.size()); break;
    default: out->ints.push_back(0);
  }
}

void append_from(PhysicalType t, const ValueBuffer& src, size_t i, ValueBuffer* out) {
  switch (t) {
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: out->doubles.push_back(src.doubles[i]); break;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: out->append_str(src.str(i)); break;
    default: out->ints.push_back(src.ints[i]);
  }
}

int bit_width_of(int16_t max_level) {
  int w = 0;
  while ((1 << w) <= max_level) ++w;
  return w;
}

// Reads one column chunk's pages and appends its rows to `col`.
class ChunkReader {
 public:
  ChunkReader(const ColumnInfo& info, const ReadLimits& limits, Column* col)
      : info_(info), limits_(limits), col_(col), ct_{info.type, info.type_length} {}

  Status read(std::string_view file, const ColumnChunkMeta& m, int64_t rows) {
    if (!codec_supported(m.codec))
      return make_error(ErrorCode::kUnsupported,
                        fmt::format("the {} codec is not supported (rewrite the file with "
                                    "SNAPPY, ZSTD, GZIP or no compression)",
                                    codec_name(m.codec)));
    if (m.type != info_.type) return bad("chunk type differs from the schema");
    int64_t start = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0)
      start = std::min(start, *m.dictionary_page_offset);
    if (start < 4 || m.total_compressed_size < 0 ||
        static_cast<uint64_t>(start) >= file.size() ||
        static_cast<uint64_t>(m.total_compressed_size) > file.size() - start)
      return bad("column chunk outside the file");
    std::string_view chunk = file.substr(start, m.total_compressed_size);
    const size_t rows_before = col_->rows();
    int64_t values = 0;
    while (values < m.num_values) {
      if (chunk.empty()) return bad("column chunk ends before its values");
      CompactReader r(chunk);
      PageHeader h = read_page_header(r);
      if (!r.ok()) return bad(fmt::format("page header: {}", r.error()));
      chunk.remove_prefix(r.position());
      if (h.compressed_size < 0 || h.uncompressed_size < 0 ||
          static_cast<uint64_t>(h.compressed_size) > chunk.size())
        return bad("page size beyond the column chunk");
      if (static_cast<uint64_t>(h.uncompressed_size) > limits_.max_page_bytes)
        return make_error(ErrorCode::kUnsupported, "a page larger than the reader's limit");
      std::string_view body = chunk.substr(0, h.compressed_size);
      chunk.remove_prefix(h.compressed_size);
      if (h.num_values < 0) return bad("negative page value count");
      if (h.type == 2) {
        if (static_cast<uint64_t>(h.num_values) > limits_.max_values_per_column)
          return make_error(ErrorCode::kUnsupported, "a dictionary larger than the reader's limit");
        SB_TRY(read_dictionary(h, body, m.codec));
      } else if (h.type == 0 || h.type == 3) {
        if (h.num_values > m.num_values - values)
          return bad("page value count beyond the column chunk's");
        total_values_ += static_cast<uint64_t>(h.num_values);
        if (total_values_ > limits_.max_values_per_column)
          return make_error(ErrorCode::kUnsupported, "more values than the reader's limit");
        SB_TRY(read_data_page(h, body, m.codec));
        values += h.num_values;
      }  // index pages and unknown pages are skipped
    }
    finish_row();
    if (static_cast<int64_t>(col_->rows() - rows_before) != rows)
      return bad("row count differs from the row group's");
    return {};
  }

 private:
  tl::unexpected<Error> bad(std::string_view why) const {
    return make_error(ErrorCode::kParse, fmt::format("corrupt column chunk ({})", why));
  }

  Status read_dictionary(const PageHeader& h, std::string_view body, int32_t codec) {
    if (h.encoding != 0 && h.encoding != 2)
      return make_error(ErrorCode::kUnsupported,
                        fmt::format("a dictionary page in the {} encoding is not supported",
                                    encoding_name(h.encoding)));
    std::string plain;
    SB_TRY(decompress(codec, body, static_cast<size_t>(h.uncompressed_size), &plain));
    dict_ = ValueBuffer{};
    SB_TRY(decode_values(0, ct_, plain, static_cast<size_t>(h.num_values), nullptr, &dict_));
    has_dict_ = true;
    return {};
  }

  // Levels of a v1 page: RLE with a 4-byte length prefix. Returns the bytes consumed.
  Result<size_t> read_v1_levels(std::string_view data, int32_t encoding, int16_t max_level,
                                size_t count, std::vector<uint32_t>* out) {
    if (encoding != 3)
      return make_error(ErrorCode::kUnsupported,
                        fmt::format("{} levels are not supported", encoding_name(encoding)));
    if (data.size() < 4) return bad("truncated level length");
    uint32_t len;
    std::memcpy(&len, data.data(), 4);
    if (len > data.size() - 4) return bad("level length beyond the page");
    SB_TRY(decode_rle_hybrid(data.substr(4, len), bit_width_of(max_level), count, out));
    return size_t{4} + len;
  }

  Status read_data_page(const PageHeader& h, std::string_view body, int32_t codec) {
    const auto n = static_cast<size_t>(h.num_values);
    rep_.clear();
    def_.clear();
    std::string page;
    std::string_view values;
    if (h.type == 3) {
      if (h.def_bytes < 0 || h.rep_bytes < 0 ||
          static_cast<uint64_t>(h.def_bytes + h.rep_bytes) > body.size())
        return bad("level sizes beyond the page");
      if (info_.max_rep > 0)
        SB_TRY(decode_rle_hybrid(body.substr(0, h.rep_bytes), bit_width_of(info_.max_rep), n, &rep_));
      if (info_.max_def > 0)
        SB_TRY(decode_rle_hybrid(body.substr(h.rep_bytes, h.def_bytes),
                                 bit_width_of(info_.max_def), n, &def_));
      const size_t skip = static_cast<size_t>(h.rep_bytes + h.def_bytes);
      const int64_t rest = h.uncompressed_size - static_cast<int64_t>(skip);
      if (rest < 0) return bad("level sizes beyond the page");
      if (h.v2_compressed) {
        SB_TRY(decompress(codec, body.substr(skip), static_cast<size_t>(rest), &page));
        values = page;
      } else {
        values = body.substr(skip);
      }
    } else {
      SB_TRY(decompress(codec, body, static_cast<size_t>(h.uncompressed_size), &page));
      std::string_view p = page;
      if (info_.max_rep > 0) {
        SB_TRY_ASSIGN(const size_t used, read_v1_levels(p, h.rep_encoding, info_.max_rep, n, &rep_));
        p.remove_prefix(used);
      }
      if (info_.max_def > 0) {
        SB_TRY_ASSIGN(const size_t used, read_v1_levels(p, h.def_encoding, info_.max_def, n, &def_));
        p.remove_prefix(used);
      }
      values = p;
    }
    size_t present = n;
    if (info_.max_def > 0) {
      present = 0;
      for (uint32_t d : def_) present += d == static_cast<uint32_t>(info_.max_def);
    }
    if (info_.is_list) {
      page_vals_ = ValueBuffer{};
      SB_TRY(decode_values(h.encoding, ct_, values, present, has_dict_ ? &dict_ : nullptr, &page_vals_));
      if (page_vals_.size(ct_.type) != present) return bad("value count differs from the levels");
      return assemble_list(n);
    }
    // Flat columns decode straight into the column (no second copy of the strings), then the
    // null slots are spread in.
    const size_t start = col_->values.size(ct_.type);
    SB_TRY(decode_values(h.encoding, ct_, values, present, has_dict_ ? &dict_ : nullptr, &col_->values));
    if (col_->values.size(ct_.type) != start + present) return bad("value count differs from the levels");
    return assemble_flat(n, start, present);
  }

  template <class V>
  void spread(std::vector<V>* v, size_t start, size_t n, size_t present) {
    v->resize(start + n);
    size_t j = present;
    for (size_t i = n; i-- > 0;) {
      if (def_[i] == static_cast<uint32_t>(info_.max_def)) (*v)[start + i] = (*v)[start + --j];
      else (*v)[start + i] = V{};
    }
  }

  Status assemble_flat(size_t n, size_t start, size_t present) {
    if (info_.max_def == 0) {
      col_->valid.insert(col_->valid.end(), n, 1);
      return {};
    }
    for (size_t i = 0; i < n; ++i) {
      if (def_[i] > static_cast<uint32_t>(info_.max_def)) return bad("definition level above the maximum");
      col_->valid.push_back(def_[i] == static_cast<uint32_t>(info_.max_def));
    }
    if (present == n) return {};
    ValueBuffer& v = col_->values;
    switch (ct_.type) {
      case PhysicalType::kFloat:
      case PhysicalType::kDouble: spread(&v.doubles, start, n, present); break;
      case PhysicalType::kByteArray:
      case PhysicalType::kFixedLenByteArray: {
        // A null is an empty value: the bytes stay, only the offsets gain entries.
        std::vector<uint64_t> tail(v.offsets.begin() + static_cast<std::ptrdiff_t>(start), v.offsets.end());
        v.offsets.resize(start + 1);
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
          if (def_[i] == static_cast<uint32_t>(info_.max_def)) ++k;
          v.offsets.push_back(tail[k]);
        }
        break;
      }
      default: spread(&v.ints, start, n, present);
    }
    return {};
  }

  void finish_row() {
    if (in_row_) col_->list_offsets.push_back(col_->element_valid.size());
    in_row_ = false;
  }

  Status assemble_list(size_t n) {
    size_t j = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = rep_[i], d = def_[i];
      if (r > 1 || d > static_cast<uint32_t>(info_.max_def)) return bad("level above the maximum");
      if (r == 0) {
        finish_row();
        if (col_->list_offsets.empty()) col_->list_offsets.push_back(0);
        in_row_ = true;
        col_->valid.push_back(d + 1 >= static_cast<uint32_t>(info_.list_def));
      } else if (!in_row_) {
        return bad("a list continues a row that never started");
      }
      if (d < static_cast<uint32_t>(info_.list_def)) {
        if (r == 1) return bad("an empty list element inside a list");
        continue;  // null or empty list
      }
      const bool has = d == static_cast<uint32_t>(info_.max_def);
      col_->element_valid.push_back(has);
      if (has) append_from(ct_.type, page_vals_, j++, &col_->values);
      else append_null(ct_.type, &col_->values);
    }
    return {};
  }

  const ColumnInfo& info_;
  const ReadLimits& limits_;
  Column* col_;
  ColumnType ct_;
  ValueBuffer dict_;
  bool has_dict_ = false;
  ValueBuffer page_vals_;
  std::vector<uint32_t> rep_, def_;
  bool in_row_ = false;
  uint64_t total_values_ = 0;
};

}  // namespace

Result<ParquetFile> ParquetFile::open(std::string bytes, std::string name, ReadLimits limits) {
  auto fail = [&](std::string_view why) {
    return make_error(ErrorCode::kParse, fmt::format("'{}' is not a readable Parquet file: {}", name, why));
  };
  if (bytes.size() < 12 || bytes.compare(0, 4, "PAR1") != 0) return fail("no PAR1 header");
  if (bytes.compare(bytes.size() - 4, 4, "PARE") == 0)
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("'{}': encrypted Parquet files are not supported", name));
  if (bytes.compare(bytes.size() - 4, 4, "PAR1") != 0) return fail("no PAR1 trailer (truncated?)");
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  if (footer_len > bytes.size() - 12) return fail("footer length beyond the file");
  ParquetFile f;
  auto md = parse_file_metadata(std::string_view(bytes).substr(bytes.size() - 8 - footer_len, footer_len));
  if (!md) return fail(md.error().message);
  f.meta_ = std::move(*md);
  auto cols = build_columns(f.meta_);
  if (!cols) return fail(cols.error().message);
  f.columns_ = std::move(*cols);
  f.bytes_ = std::move(bytes);
  f.name_ = std::move(name);
  f.limits_ = limits;
  return f;
}

const ColumnInfo* ParquetFile::find(std::string_view name) const {
  for (const auto& c : columns_)
    if (c.name == name) return &c;
  return nullptr;
}

Result<Column> ParquetFile::read_column(std::string_view name) const {
  const ColumnInfo* info = find(name);
  if (!info)
    return make_error(ErrorCode::kNotFound, fmt::format("'{}': no column '{}'", name_, name));
  if (!info->unsupported.empty())
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("'{}': column '{}': {}", name_, name, info->unsupported));
  Column col;
  col.info = *info;
  for (const auto& g : meta_.row_groups) {
    ChunkReader reader(col.info, limits_, &col);
    if (auto st = reader.read(bytes_, g.columns[info->leaf], g.num_rows); !st)
      return make_error(st.error().code,
                        fmt::format("'{}': column '{}': {}", name_, name, st.error().message));
  }
  if (col.info.is_list && col.list_offsets.empty()) col.list_offsets.push_back(0);
  return col;
}

}  // namespace servebench::parquet
