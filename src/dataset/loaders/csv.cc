#include "dataset/loaders/csv.h"

namespace servebench::dataset {

bool CsvReader::next_row(std::vector<std::string_view>* fields) {
  fields->clear();
  scratch_.clear();
  if (pos_ >= text_.size()) return false;
  row_line_ = line_;
  for (;;) {
    if (pos_ < text_.size() && text_[pos_] == '"') {
      // Quoted field: copy with "" → " unescaping.
      std::string& s = scratch_.emplace_back();
      ++pos_;
      while (pos_ < text_.size()) {
        char c = text_[pos_++];
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            s.push_back('"');
            ++pos_;
          } else {
            break;
          }
        } else {
          if (c == '\n') ++line_;
          s.push_back(c);
        }
      }
      fields->emplace_back(s);
      // Skip anything up to the delimiter (lenient about junk after a closing quote).
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n') ++pos_;
    } else {
      size_t start = pos_;
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n') ++pos_;
      std::string_view f = text_.substr(start, pos_ - start);
      if (!f.empty() && f.back() == '\r') f.remove_suffix(1);
      fields->push_back(f);
    }
    if (pos_ >= text_.size()) return true;
    char d = text_[pos_++];
    if (d == '\n') {
      ++line_;
      return true;
    }
  }
}

}  // namespace servebench::dataset
