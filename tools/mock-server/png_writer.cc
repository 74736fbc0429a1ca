#include "png_writer.h"

#include <array>

#include "core/rng.h"

namespace servebench::mock {

namespace {

const std::array<uint32_t, 256>& crc_table() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  return table;
}

uint32_t crc32(std::string_view bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = crc_table()[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t adler32(std::string_view bytes) {
  uint32_t a = 1, b = 0;
  for (unsigned char x : bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

void put_u32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>((v >> shift) & 0xFF));
}

void put_chunk(std::string_view type, std::string_view data, std::string* out) {
  put_u32(static_cast<uint32_t>(data.size()), out);
  std::string typed(type);
  typed.append(data);
  out->append(typed);
  put_u32(crc32(typed), out);
}

// zlib header, stored deflate blocks of at most 65535 bytes, Adler-32 trailer.
std::string zlib_stored(std::string_view raw) {
  std::string z("\x78\x01", 2);
  size_t at = 0;
  do {
    const size_t n = std::min<size_t>(raw.size() - at, 65535);
    const bool last = at + n == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<char>(n & 0xFF));
    z.push_back(static_cast<char>(n >> 8));
    z.push_back(static_cast<char>(~n & 0xFF));
    z.push_back(static_cast<char>((~n >> 8) & 0xFF));
    z.append(raw.substr(at, n));
    at += n;
  } while (at < raw.size());
  put_u32(adler32(raw), &z);
  return z;
}

}  // namespace

std::string synthetic_png(int width, int height, uint64_t seed) {
  std::string raw;
  raw.reserve(static_cast<size_t>(height) * (1 + 3 * static_cast<size_t>(width)));
  uint64_t state = seed;
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);  // filter: none
    for (int x = 0; x < width; ++x) {
      const uint64_t noise = core::splitmix64(&state);
      raw.push_back(static_cast<char>((x * 255 / width + (noise & 0x1F)) & 0xFF));
      raw.push_back(static_cast<char>((y * 255 / height + ((noise >> 8) & 0x1F)) & 0xFF));
      raw.push_back(static_cast<char>((noise >> 16) & 0xFF));
    }
  }
  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put_u32(static_cast<uint32_t>(width), &ihdr);
  put_u32(static_cast<uint32_t>(height), &ihdr);
  ihdr.append("\x08\x02\x00\x00\x00", 5);  // 8-bit, RGB, deflate, adaptive filters, no interlace
  put_chunk("IHDR", ihdr, &png);
  put_chunk("IDAT", zlib_stored(raw), &png);
  put_chunk("IEND", {}, &png);
  return png;
}

std::string base64_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  if (i < bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace servebench::mock
