// A minimal PNG writer for servebench-mock's image answers: 8-bit RGB, one zlib stream of
// stored (uncompressed) deflate blocks, so any decoder reads it and no compression library is
// needed. Pixels are a seeded pattern (a gradient plus noise): the same seed, the same image.
// Also base64 (RFC 4648, padded), which the Images API answers carry.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace servebench::mock {

// A complete PNG file of width × height pixels (each 1..4096).
std::string synthetic_png(int width, int height, uint64_t seed);

std::string base64_encode(std::string_view bytes);

}  // namespace servebench::mock
