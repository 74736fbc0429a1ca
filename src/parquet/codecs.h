// Page decompression: UNCOMPRESSED, SNAPPY (libsnappy), GZIP (zlib), ZSTD (libzstd).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::parquet {

// Parquet's CompressionCodec numbers.
enum class Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,
  kZstd = 6,
  kLz4Raw = 7,
};
const char* codec_name(int32_t codec);
bool codec_supported(int32_t codec);

// Decompresses `in` into `*out`, which must come out exactly `uncompressed_size` bytes long.
// Errors name the codec; the caller adds the column.
Status decompress(int32_t codec, std::string_view in, size_t uncompressed_size, std::string* out);

}  // namespace servebench::parquet
