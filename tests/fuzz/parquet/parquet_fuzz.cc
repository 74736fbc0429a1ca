// Fuzz target for the Parquet reader: any bytes must give an error or columns whose shapes are
// consistent (one validity flag per row, values per row or per list element, list offsets
// increasing inside the elements), never a crash or a read out of bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "parquet/reader.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_column(const servebench::parquet::Column& c) {
  using servebench::parquet::PhysicalType;
  const size_t slots = c.info.is_list ? c.element_valid.size() : c.rows();
  check(c.values.size(c.info.type) == slots);
  check(!c.values.offsets.empty() && c.values.offsets.back() == c.values.bytes.size());
  if (c.info.is_list) {
    check(c.list_offsets.size() == c.rows() + 1);
    for (size_t r = 0; r < c.rows(); ++r) check(c.list_offsets[r] <= c.list_offsets[r + 1]);
    check(c.list_offsets.back() == c.element_valid.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Small limits: a few bytes may legally describe millions of null values.
  servebench::parquet::ReadLimits limits{1u << 16, 1u << 20};
  auto f = servebench::parquet::ParquetFile::open(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz", limits);
  if (!f) return 0;
  for (const auto& info : f->columns()) {
    auto col = f->read_column(info.name);
    if (col) check_column(*col);
  }
  return 0;
}
