#include "core/base64.h"

#include <cstdint>

namespace servebench::core {
namespace {

// A character's 6-bit value; -1 for padding and whitespace (skipped); -2 for anything else.
int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  if (c == '=' || c == '\n' || c == '\r' || c == ' ') return -1;
  return -2;
}

}  // namespace

bool decode_base64(std::string_view in, std::string* out) {
  out->clear();
  out->reserve(in.size() / 4 * 3 + 2);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const int v = sextet(c);
    if (v == -1) continue;
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace servebench::core
