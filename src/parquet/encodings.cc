#include "parquet/encodings.h"

#include <fmt/format.h>

#include <cstring>

namespace servebench::parquet {
namespace {

tl::unexpected<Error> bad(std::string_view what) {
  return make_error(ErrorCode::kParse, fmt::format("corrupt page ({})", what));
}

// Byte cursor with checked reads.
struct Cursor {
  std::string_view d;
  size_t pos = 0;
  size_t left() const { return d.size() - pos; }
  bool varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= d.size()) return false;
      const auto b = static_cast<uint8_t>(d[pos++]);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool zigzag(int64_t* v) {
    uint64_t u;
    if (!varint(&u)) return false;
    *v = static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
    return true;
  }
};

// Reads `count` values of `width` bits (0..64), LSB first, from `p` (which holds enough bytes).
template <class Out>
void unpack_bits(const uint8_t* p, int width, size_t count, Out&& out) {
  uint64_t bitpos = 0;
  for (size_t i = 0; i < count; ++i) {
    uint64_t v = 0;
    for (int got = 0; got < width;) {
      const uint64_t byte = bitpos >> 3;
      const int shift = static_cast<int>(bitpos & 7);
      const int take = std::min(8 - shift, width - got);
      v |= static_cast<uint64_t>((p[byte] >> shift) & ((1u << take) - 1)) << got;
      got += take;
      bitpos += static_cast<uint64_t>(take);
    }
    out(v);
  }
}

template <class T>
T load_le(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

Status decode_plain(const ColumnType& ct, std::string_view data, size_t count, ValueBuffer* out) {
  const char* p = data.data();
  const size_t n = data.size();
  switch (ct.type) {
    case PhysicalType::kBoolean:
      if (count > n * 8) return bad("too few bytes for the booleans");
      unpack_bits(reinterpret_cast<const uint8_t*>(p), 1, count,
                  [&](uint64_t v) { out->ints.push_back(static_cast<int64_t>(v)); });
      return {};
    case PhysicalType::kInt32:
      if (count > n / 4) return bad("too few bytes for the INT32 values");
      for (size_t i = 0; i < count; ++i) out->ints.push_back(load_le<int32_t>(p + 4 * i));
      return {};
    case PhysicalType::kInt64:
      if (count > n / 8) return bad("too few bytes for the INT64 values");
      for (size_t i = 0; i < count; ++i) out->ints.push_back(load_le<int64_t>(p + 8 * i));
      return {};
    case PhysicalType::kFloat:
      if (count > n / 4) return bad("too few bytes for the FLOAT values");
      for (size_t i = 0; i < count; ++i) out->doubles.push_back(load_le<float>(p + 4 * i));
      return {};
    case PhysicalType::kDouble:
      if (count > n / 8) return bad("too few bytes for the DOUBLE values");
      for (size_t i = 0; i < count; ++i) out->doubles.push_back(load_le<double>(p + 8 * i));
      return {};
    case PhysicalType::kByteArray: {
      size_t pos = 0;
      for (size_t i = 0; i < count; ++i) {
        if (n - pos < 4) return bad("truncated BYTE_ARRAY length");
        const uint32_t len = load_le<uint32_t>(p + pos);
        pos += 4;
        if (len > n - pos) return bad("BYTE_ARRAY value longer than the page");
        out->append_str(data.substr(pos, len));
        pos += len;
      }
      return {};
    }
    case PhysicalType::kFixedLenByteArray: {
      const auto w = static_cast<size_t>(ct.type_length);
      if (w == 0 || count > n / w) return bad("too few bytes for the FIXED_LEN_BYTE_ARRAY values");
      for (size_t i = 0; i < count; ++i) out->append_str(data.substr(i * w, w));
      return {};
    }
    default:
      return make_error(ErrorCode::kUnsupported, "INT96 values are not supported");
  }
}

// DELTA_BINARY_PACKED: `*cur` ends right after the last miniblock holding a wanted value.
Status decode_delta_ints(Cursor* cur, size_t count, std::vector<int64_t>* out) {
  uint64_t block_size, miniblocks, total;
  int64_t first;
  if (!cur->varint(&block_size) || !cur->varint(&miniblocks) || !cur->varint(&total) ||
      !cur->zigzag(&first))
    return bad("truncated DELTA_BINARY_PACKED header");
  if (block_size == 0 || block_size % 128 != 0 || miniblocks == 0 || block_size % miniblocks ||
      (block_size / miniblocks) % 32 != 0 || block_size > (1u << 20))
    return bad("invalid DELTA_BINARY_PACKED block layout");
  if (total < count) return bad("DELTA_BINARY_PACKED holds fewer values than the page");
  if (count == 0) return {};
  const uint64_t per_mini = block_size / miniblocks;
  uint64_t value = static_cast<uint64_t>(first);
  out->push_back(first);
  size_t done = 1;
  while (done < count) {
    int64_t min_delta;
    if (!cur->zigzag(&min_delta)) return bad("truncated DELTA_BINARY_PACKED block");
    if (cur->left() < miniblocks) return bad("truncated DELTA_BINARY_PACKED bit widths");
    const auto* widths = reinterpret_cast<const uint8_t*>(cur->d.data() + cur->pos);
    cur->pos += miniblocks;
    for (uint64_t m = 0; m < miniblocks && done < count; ++m) {
      const int w = widths[m];
      if (w > 64) return bad("DELTA_BINARY_PACKED bit width above 64");
      const uint64_t bytes = per_mini * static_cast<uint64_t>(w) / 8;
      if (cur->left() < bytes) return bad("truncated DELTA_BINARY_PACKED miniblock");
      const size_t take = std::min<size_t>(per_mini, count - done);
      unpack_bits(reinterpret_cast<const uint8_t*>(cur->d.data() + cur->pos), w, take,
                  [&](uint64_t delta) {
                    value += delta + static_cast<uint64_t>(min_delta);  // wraps, as specified
                    out->push_back(static_cast<int64_t>(value));
                  });
      done += take;
      cur->pos += bytes;
    }
  }
  return {};
}

Status decode_delta(const ColumnType& ct, std::string_view data, size_t count, ValueBuffer* out) {
  Cursor cur{data};
  if (ct.type == PhysicalType::kInt32 || ct.type == PhysicalType::kInt64) {
    const size_t before = out->ints.size();
    SB_TRY(decode_delta_ints(&cur, count, &out->ints));
    if (ct.type == PhysicalType::kInt32)
      for (size_t i = before; i < out->ints.size(); ++i)
        out->ints[i] = static_cast<int32_t>(static_cast<uint32_t>(out->ints[i]));
    return {};
  }
  return make_error(ErrorCode::kUnsupported, "DELTA_BINARY_PACKED applies to INT32/INT64 only");
}

Status decode_delta_length(std::string_view data, size_t count, ValueBuffer* out) {
  Cursor cur{data};
  std::vector<int64_t> lengths;
  SB_TRY(decode_delta_ints(&cur, count, &lengths));
  for (int64_t len : lengths) {
    if (len < 0 || static_cast<uint64_t>(len) > cur.left())
      return bad("DELTA_LENGTH_BYTE_ARRAY length beyond the page");
    out->append_str(data.substr(cur.pos, static_cast<size_t>(len)));
    cur.pos += static_cast<size_t>(len);
  }
  return {};
}

Status decode_delta_byte_array(std::string_view data, size_t count, ValueBuffer* out) {
  Cursor cur{data};
  std::vector<int64_t> prefixes, suffixes;
  SB_TRY(decode_delta_ints(&cur, count, &prefixes));
  SB_TRY(decode_delta_ints(&cur, count, &suffixes));
  std::string prev;
  for (size_t i = 0; i < count; ++i) {
    const int64_t pre = prefixes[i], suf = suffixes[i];
    if (pre < 0 || static_cast<uint64_t>(pre) > prev.size() || suf < 0 ||
        static_cast<uint64_t>(suf) > cur.left())
      return bad("DELTA_BYTE_ARRAY prefix or suffix out of range");
    prev.resize(static_cast<size_t>(pre));
    prev.append(data.substr(cur.pos, static_cast<size_t>(suf)));
    cur.pos += static_cast<size_t>(suf);
    out->append_str(prev);
  }
  return {};
}

Status decode_byte_stream_split(const ColumnType& ct, std::string_view data, size_t count,
                                ValueBuffer* out) {
  size_t width = 0;
  switch (ct.type) {
    case PhysicalType::kFloat:
    case PhysicalType::kInt32: width = 4; break;
    case PhysicalType::kDouble:
    case PhysicalType::kInt64: width = 8; break;
    case PhysicalType::kFixedLenByteArray: width = static_cast<size_t>(ct.type_length); break;
    default: return make_error(ErrorCode::kUnsupported, "BYTE_STREAM_SPLIT on this type");
  }
  if (width == 0 || data.size() % width != 0 || data.size() / width < count)
    return bad("BYTE_STREAM_SPLIT size");
  const size_t stride = data.size() / width;
  std::string joined(count * width, '\0');
  for (size_t i = 0; i < count; ++i)
    for (size_t b = 0; b < width; ++b) joined[i * width + b] = data[b * stride + i];
  return decode_plain(ct, joined, count, out);
}

Status decode_dictionary(const ColumnType& ct, std::string_view data, size_t count,
                         const ValueBuffer* dict, ValueBuffer* out) {
  if (!dict) return bad("dictionary-encoded page without a dictionary page");
  if (count == 0) return {};
  if (data.empty()) return bad("missing dictionary index bit width");
  const int width = static_cast<uint8_t>(data[0]);
  if (width > 32) return bad("dictionary index bit width above 32");
  std::vector<uint32_t> idx;
  idx.reserve(count);
  SB_TRY(decode_rle_hybrid(data.substr(1), width, count, &idx));
  const size_t dict_size = dict->size(ct.type);
  for (uint32_t i : idx)
    if (i >= dict_size) return bad("dictionary index out of range");
  switch (ct.type) {
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      for (uint32_t i : idx) out->append_str(dict->str(i));
      return {};
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      for (uint32_t i : idx) out->doubles.push_back(dict->doubles[i]);
      return {};
    default:
      for (uint32_t i : idx) out->ints.push_back(dict->ints[i]);
      return {};
  }
}

}  // namespace

size_t ValueBuffer::size(PhysicalType t) const {
  switch (t) {
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: return doubles.size();
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return offsets.size() - 1;
    default: return ints.size();
  }
}

const char* encoding_name(int32_t e) {
  switch (e) {
    case 0: return "PLAIN";
    case 2: return "PLAIN_DICTIONARY";
    case 3: return "RLE";
    case 4: return "BIT_PACKED";
    case 5: return "DELTA_BINARY_PACKED";
    case 6: return "DELTA_LENGTH_BYTE_ARRAY";
    case 7: return "DELTA_BYTE_ARRAY";
    case 8: return "RLE_DICTIONARY";
    case 9: return "BYTE_STREAM_SPLIT";
    default: return "unknown";
  }
}

Status decode_rle_hybrid(std::string_view data, int bit_width, size_t count,
                         std::vector<uint32_t>* out) {
  if (bit_width < 0 || bit_width > 32) return bad("RLE bit width above 32");
  Cursor cur{data};
  size_t done = 0;
  const size_t value_bytes = static_cast<size_t>((bit_width + 7) / 8);
  while (done < count) {
    uint64_t header;
    if (!cur.varint(&header)) return bad("truncated RLE run header");
    if (header & 1) {  // bit-packed: (header >> 1) groups of 8 values
      const uint64_t groups = header >> 1;
      if (groups == 0) return bad("empty bit-packed run");
      const uint64_t bytes = groups * static_cast<uint64_t>(bit_width);
      // Writers may end a page's last run early: take what the bytes hold.
      const uint64_t avail = std::min<uint64_t>(bytes, cur.left());
      const uint64_t have = bit_width ? avail * 8 / static_cast<uint64_t>(bit_width) : groups * 8;
      const size_t take = static_cast<size_t>(std::min<uint64_t>({groups * 8, have, count - done}));
      if (take == 0) return bad("truncated bit-packed run");
      unpack_bits(reinterpret_cast<const uint8_t*>(cur.d.data() + cur.pos), bit_width, take,
                  [&](uint64_t v) { out->push_back(static_cast<uint32_t>(v)); });
      done += take;
      cur.pos += static_cast<size_t>(avail);
    } else {
      const uint64_t run = header >> 1;
      if (cur.left() < value_bytes) return bad("truncated RLE run value");
      uint32_t v = 0;
      for (size_t b = 0; b < value_bytes; ++b)
        v |= static_cast<uint32_t>(static_cast<uint8_t>(cur.d[cur.pos + b])) << (8 * b);
      cur.pos += value_bytes;
      if (run == 0) return bad("empty RLE run");
      const size_t take = static_cast<size_t>(std::min<uint64_t>(run, count - done));
      out->insert(out->end(), take, v);
      done += take;
    }
  }
  return {};
}

Status decode_values(int32_t encoding, const ColumnType& ct, std::string_view data, size_t count,
                     const ValueBuffer* dict, ValueBuffer* out) {
  switch (static_cast<Encoding>(encoding)) {
    case Encoding::kPlain:
      return decode_plain(ct, data, count, out);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return decode_dictionary(ct, data, count, dict, out);
    case Encoding::kRle: {
      if (ct.type != PhysicalType::kBoolean)
        return make_error(ErrorCode::kUnsupported, "RLE values apply to BOOLEAN only");
      if (data.size() < 4) return bad("truncated RLE length");
      const uint32_t len = load_le<uint32_t>(data.data());
      if (len > data.size() - 4) return bad("RLE length beyond the page");
      std::vector<uint32_t> bits;
      SB_TRY(decode_rle_hybrid(data.substr(4, len), 1, count, &bits));
      for (uint32_t b : bits) out->ints.push_back(b);
      return {};
    }
    case Encoding::kDeltaBinaryPacked:
      return decode_delta(ct, data, count, out);
    case Encoding::kDeltaLengthByteArray:
      if (ct.type != PhysicalType::kByteArray) break;
      return decode_delta_length(data, count, out);
    case Encoding::kDeltaByteArray:
      if (ct.type != PhysicalType::kByteArray && ct.type != PhysicalType::kFixedLenByteArray) break;
      return decode_delta_byte_array(data, count, out);
    case Encoding::kByteStreamSplit:
      return decode_byte_stream_split(ct, data, count, out);
    default:
      break;
  }
  return make_error(ErrorCode::kUnsupported,
                    fmt::format("the {} encoding is not supported for {} values",
                                encoding_name(encoding), physical_type_name(ct.type)));
}

}  // namespace servebench::parquet
