// ContentHash: a fast 128-bit hash of byte streams (two 64-bit lanes over 8-byte words, a
// murmur-style finalizer) that names cache entries and fingerprints files. Not cryptographic:
// it identifies content, it does not defend it. Header-only so that build-time generator tools
// that compile single sources can use it.
//
// Thread safety: a value type; one per thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace servebench::core {

class ContentHash {
 public:
  ContentHash& update(std::string_view s) {
    const char* p = s.data();
    size_t n = s.size();
    bytes_ += n;
    if (fill_ == 0) {  // whole words straight from the input
      for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        step(w);
      }
    }
    while (n > 0) {
      const size_t take = std::min(n, 8 - fill_);
      std::memcpy(buf_ + fill_, p, take);
      fill_ += take;
      p += take;
      n -= take;
      if (fill_ == 8) {
        uint64_t w;
        std::memcpy(&w, buf_, 8);
        step(w);
        fill_ = 0;
      }
    }
    return *this;
  }
  ContentHash& update_u64(uint64_t v) { return update(std::string_view(reinterpret_cast<const char*>(&v), 8)); }
  // Length-prefixed, so consecutive fields cannot run into each other.
  ContentHash& field(std::string_view s) { return update_u64(s.size()).update(s); }

  // The two 64-bit halves (the hash state itself is left as it was).
  std::pair<uint64_t, uint64_t> finish() const {
    ContentHash h = *this;
    uint64_t w = 0;
    std::memcpy(&w, h.buf_, h.fill_);
    h.step(w ^ (static_cast<uint64_t>(h.fill_) << 56));
    const uint64_t hi = fmix(h.a_ ^ h.bytes_);
    return {hi, fmix(h.b_ ^ hi)};
  }
  // 32 lowercase hex digits.
  std::string hex() const {
    const auto [hi, lo] = finish();
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(32, '0');
    for (int i = 0; i < 16; ++i) {
      out[static_cast<size_t>(i)] = kHex[(hi >> (60 - 4 * i)) & 0xF];
      out[static_cast<size_t>(16 + i)] = kHex[(lo >> (60 - 4 * i)) & 0xF];
    }
    return out;
  }

 private:
  static uint64_t fmix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
  }
  void step(uint64_t w) {
    a_ = (a_ ^ w) * 0x9E3779B97F4A7C15ULL;
    a_ ^= a_ >> 29;
    b_ = (b_ + (w ^ 0xD6E8FEB86659FD93ULL)) * 0xC2B2AE3D27D4EB4FULL;
    b_ ^= b_ >> 31;
  }
  uint64_t a_ = 0x243F6A8885A308D3ULL, b_ = 0x13198A2E03707344ULL, bytes_ = 0;
  char buf_[8] = {};
  size_t fill_ = 0;
};

// Little-endian (host order on every supported target) fixed-width fields of binary files.
inline void put_u32(std::string* out, uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }
inline void put_u64(std::string* out, uint64_t v) { out->append(reinterpret_cast<const char*>(&v), 8); }
inline uint32_t get_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t get_u64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace servebench::core
