#include "parquet/codecs.h"

#include <fmt/format.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

namespace servebench::parquet {
namespace {

tl::unexpected<Error> corrupt(int32_t codec, std::string_view why) {
  return make_error(ErrorCode::kParse, fmt::format("corrupt {} page ({})", codec_name(codec), why));
}

Status gunzip(std::string_view in, size_t size, std::string* out) {
  z_stream z{};
  // 15 + 32: zlib or gzip header, detected.
  if (inflateInit2(&z, 15 + 32) != Z_OK) return corrupt(2, "zlib init failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out->data());
  z.avail_out = static_cast<uInt>(size);
  int rc = Z_OK;
  // Concatenated gzip members are legal; keep inflating while input and room remain.
  while (true) {
    rc = inflate(&z, Z_FINISH);
    if (rc == Z_STREAM_END && z.avail_in > 0 && z.avail_out > 0) {
      inflateReset(&z);
      continue;
    }
    break;
  }
  const size_t produced = size - z.avail_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return corrupt(2, "truncated or invalid deflate stream");
  if (produced != size) return corrupt(2, "size differs from the page header");
  return {};
}

}  // namespace

const char* codec_name(int32_t codec) {
  switch (codec) {
    case 0: return "UNCOMPRESSED";
    case 1: return "SNAPPY";
    case 2: return "GZIP";
    case 3: return "LZO";
    case 4: return "BROTLI";
    case 5: return "LZ4";
    case 6: return "ZSTD";
    case 7: return "LZ4_RAW";
    default: return "unknown";
  }
}

bool codec_supported(int32_t codec) { return codec == 0 || codec == 1 || codec == 2 || codec == 6; }

Status decompress(int32_t codec, std::string_view in, size_t size, std::string* out) {
  if (codec == 6) {
    const unsigned long long claimed = ZSTD_getFrameContentSize(in.data(), in.size());
    if (claimed != ZSTD_CONTENTSIZE_UNKNOWN && claimed != size)
      return corrupt(codec, "size differs from the page header");
  }
  if (codec == 1) {
    size_t n = 0;
    if (!snappy::GetUncompressedLength(in.data(), in.size(), &n) || n != size)
      return corrupt(codec, "size differs from the page header");
  }
  if (codec != 0) out->resize(size);
  switch (codec) {
    case 0:
      if (in.size() != size) return corrupt(codec, "size differs from the page header");
      out->assign(in);
      return {};
    case 1: {
      if (!snappy::RawUncompress(in.data(), in.size(), out->data()))
        return corrupt(codec, "invalid snappy data");
      return {};
    }
    case 2:
      if (size == 0) return {};
      return gunzip(in, size, out);
    case 6: {
      const size_t n = ZSTD_decompress(out->data(), size, in.data(), in.size());
      if (ZSTD_isError(n)) return corrupt(codec, ZSTD_getErrorName(n));
      if (n != size) return corrupt(codec, "size differs from the page header");
      return {};
    }
    default:
      return make_error(ErrorCode::kUnsupported,
                        fmt::format("the {} codec is not supported (rewrite the file with SNAPPY, "
                                    "ZSTD, GZIP or no compression)",
                                    codec_name(codec)));
  }
}

}  // namespace servebench::parquet
