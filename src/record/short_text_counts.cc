#include "record/short_text_counts.h"

#include <cstring>

namespace servebench::record {

namespace {

// A 64-bit mix of the text, 8 bytes at a time (at most three words here).
uint64_t hash_text(std::string_view text) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ text.size();
  for (size_t i = 0; i < text.size(); i += 8) {
    uint64_t w = 0;
    std::memcpy(&w, text.data() + i, text.size() - i < 8 ? text.size() - i : 8);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

ShortTextCounts::ShortTextCounts(const tokenizer::Tokenizer& tok) : tok_(tok), table_(kEntries) {}

size_t ShortTextCounts::count(std::string_view text) {
  if (text.size() > kMaxBytes) return tok_.count(text);
  Entry& e = table_[hash_text(text) & (kEntries - 1)];
  if (e.size == text.size() &&
      (text.empty() || std::memcmp(e.bytes, text.data(), text.size()) == 0)) {
    ++hits_;
    return e.tokens;
  }
  const size_t n = tok_.count(text);
  e.tokens = static_cast<uint32_t>(n);
  e.size = static_cast<uint8_t>(text.size());
  if (!text.empty()) std::memcpy(e.bytes, text.data(), text.size());
  return n;
}

}  // namespace servebench::record
