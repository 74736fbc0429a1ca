#include "export/line_cursor.h"

#include <gtest/gtest.h>

#include <string>

#include "core/json_text.h"

namespace servebench::exporter {
namespace {

// Every piece must read as the std::string helpers write it, whatever the buffer boundaries.
std::string via_helpers(const std::string& s, double base, int64_t v) {
  std::string out = "head:";
  out.append("{\"k\":");
  core::append_json_string(s, &out);
  out.push_back(',');
  append_scaled_number(&out, base, 1e6);
  out.push_back(',');
  out.append(std::to_string(v));
  out.push_back(',');
  append_json_number(&out, base / 7);
  out.push_back('}');
  return out;
}

std::string via_cursor(const std::string& s, double base, int64_t v) {
  std::string out = "head:";
  LineCursor w(&out);
  w.lit("{\"k\":");
  w.json_string(s);
  w.put(',');
  w.scaled(base, 1e6);
  w.put(',');
  w.integer(v);
  w.put(',');
  w.number(base / 7);
  w.put('}');
  return std::move(*w.flushed());
}

TEST(LineCursor, WritesWhatTheStringHelpersAppend) {
  const std::string strings[] = {"", "plain-id-0123456789abcdef-0123", "quote\" back\\slash",
                                 "tab\there\nnew\x01\x1f", "caf\xc3\xa9 longer than eight bytes \"x\""};
  for (const std::string& s : strings) {
    for (double base : {0.0, 1.0, 178010961.0, -2500000.0, 123456789012345.0, 0.5}) {
      EXPECT_EQ(via_cursor(s, base, -42), via_helpers(s, base, -42)) << s << " " << base;
    }
  }
}

TEST(LineCursor, StringsLargerThanTheScratchBufferAndManyLines) {
  std::string big(200'000, 'a');
  big[150'000] = '"';
  EXPECT_EQ(via_cursor(big, 1.0, 7), via_helpers(big, 1.0, 7));
  // Many pieces: the buffer fills and is flushed in between.
  std::string a = "x", b = "x";
  {
    LineCursor w(&a);
    for (int i = 0; i < 20'000; ++i) {
      w.key("k");
      w.integer(i);
    }
  }
  for (int i = 0; i < 20'000; ++i) b += "\"k\":" + std::to_string(i);
  EXPECT_EQ(a, b);
}

TEST(LineCursor, NestedCursorsOnOneThreadKeepTheirOwnBytes) {
  std::string outer = "o", inner = "i";
  {
    LineCursor w(&outer);
    w.lit("[1,");
    {
      LineCursor v(&inner);
      v.lit("[2]");
    }
    w.lit("3]");
  }
  EXPECT_EQ(outer, "o[1,3]");
  EXPECT_EQ(inner, "i[2]");
}

}  // namespace
}  // namespace servebench::exporter
