#include "parquet/thrift_compact.h"

#include <cstring>

namespace servebench::parquet {
namespace {
constexpr int kMaxDepth = 32;
}  // namespace

void CompactReader::fail(std::string why) {
  if (ok_) error_ = std::move(why);
  ok_ = false;
  pos_ = data_.size();
}

uint64_t CompactReader::read_varint() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) {
      fail("truncated varint");
      return 0;
    }
    const auto b = static_cast<uint8_t>(data_[pos_++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("varint longer than 10 bytes");
  return 0;
}

double CompactReader::read_double() {
  if (data_.size() - pos_ < 8) {
    fail("truncated double");
    return 0;
  }
  double d;
  std::memcpy(&d, data_.data() + pos_, 8);
  pos_ += 8;
  return d;
}

uint8_t CompactReader::read_byte() {
  if (pos_ >= data_.size()) {
    fail("truncated byte");
    return 0;
  }
  return static_cast<uint8_t>(data_[pos_++]);
}

std::string_view CompactReader::read_binary() {
  const uint64_t n = read_varint();
  if (!ok_) return {};
  if (n > data_.size() - pos_) {
    fail("binary field longer than the bytes left");
    return {};
  }
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

void CompactReader::read_list_header(ThriftType* elem, uint32_t* size) {
  const uint8_t h = read_byte();
  *elem = static_cast<ThriftType>(h & 0x0f);
  uint64_t n = h >> 4;
  if (n == 15) n = read_varint();
  // Every element takes at least one byte, so a count above the bytes left is corrupt.
  if (!ok_ || n > data_.size() - pos_) {
    fail("list longer than the bytes left");
    n = 0;
  }
  *size = static_cast<uint32_t>(n);
}

void CompactReader::skip(ThriftType type, int depth) {
  if (depth > kMaxDepth) {
    fail("nesting deeper than 32 levels");
    return;
  }
  switch (type) {
    case ThriftType::kBoolTrue:
    case ThriftType::kBoolFalse:
      return;
    case ThriftType::kByte:
      read_byte();
      return;
    case ThriftType::kI16:
    case ThriftType::kI32:
    case ThriftType::kI64:
      read_varint();
      return;
    case ThriftType::kDouble:
      read_double();
      return;
    case ThriftType::kBinary:
      read_binary();
      return;
    case ThriftType::kList:
    case ThriftType::kSet: {
      ThriftType elem;
      uint32_t n;
      read_list_header(&elem, &n);
      for (uint32_t i = 0; i < n && ok_; ++i) {
        if (elem == ThriftType::kBoolTrue || elem == ThriftType::kBoolFalse)
          read_byte();  // list booleans take one byte each
        else
          skip(elem, depth + 1);
      }
      return;
    }
    case ThriftType::kMap: {
      const uint64_t n = read_varint();
      if (n == 0) return;
      if (n > data_.size() - pos_) {
        fail("map longer than the bytes left");
        return;
      }
      const uint8_t kv = read_byte();
      for (uint64_t i = 0; i < n && ok_; ++i) {
        skip(static_cast<ThriftType>(kv >> 4), depth + 1);
        skip(static_cast<ThriftType>(kv & 0x0f), depth + 1);
      }
      return;
    }
    case ThriftType::kStruct:
      read_struct_at([&](int16_t, ThriftType t) { skip(t, depth + 1); }, depth + 1);
      return;
    default:
      fail("unknown Thrift type " + std::to_string(static_cast<int>(type)));
  }
}

void CompactReader::read_struct(const std::function<void(int16_t, ThriftType)>& on_field) {
  read_struct_at(on_field, depth_);
}

void CompactReader::read_struct_at(const std::function<void(int16_t, ThriftType)>& on_field,
                                   int depth) {
  if (depth > kMaxDepth) {
    fail("nesting deeper than 32 levels");
    return;
  }
  const int saved = depth_;
  depth_ = depth + 1;  // nested read_struct calls from on_field count as one level deeper
  int16_t last_id = 0;
  while (ok_) {
    const uint8_t h = read_byte();
    if (!ok_) break;
    const auto type = static_cast<ThriftType>(h & 0x0f);
    if (type == ThriftType::kStop) break;
    const int delta = h >> 4;
    const int16_t id =
        delta ? static_cast<int16_t>(last_id + delta) : static_cast<int16_t>(read_zigzag());
    last_id = id;
    const size_t before = pos_;
    on_field(id, type);
    if (ok_ && pos_ == before && type != ThriftType::kBoolTrue && type != ThriftType::kBoolFalse)
      fail("field " + std::to_string(id) + " was not consumed");
  }
  depth_ = saved;
}

}  // namespace servebench::parquet
