// Parquet value and level encodings: PLAIN, RLE/bit-packed hybrid (levels, booleans,
// dictionary indices), PLAIN_DICTIONARY/RLE_DICTIONARY, DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT. Every decoder checks its
// bounds and fails with a one-line reason instead of reading past its input.
//
// Thread safety: pure functions over caller-owned buffers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "parquet/metadata.h"

namespace servebench::parquet {

// Parquet's Encoding numbers.
enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};
const char* encoding_name(int32_t encoding);

// Decoded non-null values of one physical type, appended page by page. BOOLEAN, INT32 and
// INT64 go to `ints`; FLOAT and DOUBLE to `doubles`; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY to
// `bytes` with `offsets` (value i is bytes[offsets[i], offsets[i+1])).
struct ValueBuffer {
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::string bytes;
  std::vector<uint64_t> offsets{0};

  size_t size(PhysicalType t) const;
  std::string_view str(size_t i) const {
    return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
  void append_str(std::string_view s) {
    bytes.append(s);
    offsets.push_back(bytes.size());
  }
};

// RLE/bit-packed hybrid runs (no length prefix), values of `bit_width` bits (0..32).
// Decodes exactly `count` values into `out` (appended) or fails.
Status decode_rle_hybrid(std::string_view data, int bit_width, size_t count,
                         std::vector<uint32_t>* out);

struct ColumnType {
  PhysicalType type = PhysicalType::kInt32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY only
};

// Decodes `count` non-null values of `type` encoded with `encoding` from `data` into `out`.
// Dictionary encodings look the indices up in `dict` (null: no dictionary page was read).
Status decode_values(int32_t encoding, const ColumnType& type, std::string_view data,
                     size_t count, const ValueBuffer* dict, ValueBuffer* out);

}  // namespace servebench::parquet
