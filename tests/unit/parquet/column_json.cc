#include "unit/parquet/column_json.h"

namespace servebench::parquet::testing {
namespace {

std::string hex(std::string_view s) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : s) {
    out += kDigits[ch >> 4];
    out += kDigits[ch & 15];
  }
  return out;
}

nlohmann::json value_json(const Column& c, size_t i) {
  switch (c.info.type) {
    case PhysicalType::kBoolean: return c.values.ints[i] != 0;
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: return c.values.doubles[i];
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      if (c.info.logical == LogicalKind::kString) return std::string(c.values.str(i));
      return hex(c.values.str(i));
    default: return c.values.ints[i];
  }
}

}  // namespace

nlohmann::json column_json(const Column& c) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t r = 0; r < c.rows(); ++r) {
    if (!c.valid[r]) {
      out.push_back(nullptr);
      continue;
    }
    if (!c.info.is_list) {
      out.push_back(value_json(c, r));
      continue;
    }
    nlohmann::json list = nlohmann::json::array();
    for (uint64_t e = c.list_offsets[r]; e < c.list_offsets[r + 1]; ++e)
      list.push_back(c.element_valid[e] ? value_json(c, e) : nlohmann::json(nullptr));
    out.push_back(std::move(list));
  }
  return out;
}

}  // namespace servebench::parquet::testing
