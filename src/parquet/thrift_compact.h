// A reader for the Thrift compact protocol, the encoding of Parquet's footer and page headers.
// Bounds-checked: any read past the end, an over-long varint, an oversized container or too
// deep nesting sets a sticky failure flag (ok() turns false) and every later read returns zero
// values, so callers check ok() once after a struct instead of after every field.
//
// Thread safety: one reader per thread; the bytes must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace servebench::parquet {

enum class ThriftType : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

class CompactReader {
 public:
  explicit CompactReader(std::string_view bytes) : data_(bytes) {}

  bool ok() const { return ok_; }
  size_t position() const { return pos_; }
  const std::string& error() const { return error_; }
  void fail(std::string why);

  uint64_t read_varint();
  int64_t read_zigzag() {
    const uint64_t v = read_varint();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  int32_t read_i32() { return static_cast<int32_t>(read_zigzag()); }
  int64_t read_i64() { return read_zigzag(); }
  double read_double();
  uint8_t read_byte();
  std::string_view read_binary();

  // A list/set header: element type and count (count checked against the bytes left).
  void read_list_header(ThriftType* elem, uint32_t* size);
  // Skips one value of `type` (containers and structs recursively, at most 32 levels deep).
  void skip(ThriftType type) { skip(type, 0); }

  // Reads a struct: calls on_field(id, type) for every field; the callback must consume the
  // value (read it or call skip). Booleans are carried in the type (kBoolTrue/kBoolFalse).
  void read_struct(const std::function<void(int16_t, ThriftType)>& on_field);

 private:
  void skip(ThriftType type, int depth);
  void read_struct_at(const std::function<void(int16_t, ThriftType)>& on_field, int depth);

  std::string_view data_;
  size_t pos_ = 0;
  bool ok_ = true;
  int depth_ = 0;
  std::string error_;
};

}  // namespace servebench::parquet
