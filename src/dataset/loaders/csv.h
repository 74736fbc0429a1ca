// CsvReader: RFC 4180 rows from a buffer (quoted fields, "" escapes, CRLF or LF). Fields are
// views into the buffer, or into the reader's scratch when a quoted field had to be unescaped.
//
// Thread safety: one reader per buffer.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace servebench::dataset {

class CsvReader {
 public:
  explicit CsvReader(std::string_view text) : text_(text) {}
  // Reads the next row; false at end of input. Views stay valid until the next call.
  bool next_row(std::vector<std::string_view>* fields);
  // 1-based line number where the last row returned started.
  int64_t line() const { return row_line_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 1;
  int64_t row_line_ = 0;
  std::deque<std::string> scratch_;
};

}  // namespace servebench::dataset
