// ShortTextCounts: token counts of short texts, remembered. A streamed answer's chunks are
// mostly the same few hundred one-token words (" the", " of", ...), and each chunk's text is
// counted on its own (Chunk::tokens), so the processor threads counted the same strings over and
// over. A direct-mapped table keeps the count of the last text of at most kMaxBytes seen in each
// of kEntries slots; a miss counts with the tokenizer and takes the slot. A token count is a
// pure function of the text for a given tokenizer, so a hit returns exactly what count() would.
//
// Thread safety: one instance per thread (each record-processing thread owns one).
// REQUIRES: the tokenizer outlives the instance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace servebench::record {

class ShortTextCounts {
 public:
  static constexpr size_t kMaxBytes = 23;
  static constexpr size_t kEntries = 4096;  // ~112 KiB per thread

  explicit ShortTextCounts(const tokenizer::Tokenizer& tok);

  // tok.count(text), from the table when `text` is short and was the last one seen in its slot.
  size_t count(std::string_view text);

  size_t hits() const { return hits_; }

 private:
  struct Entry {
    uint32_t tokens = 0;
    uint8_t size = 0xFF;  // 0xFF: empty slot
    char bytes[kMaxBytes];
  };

  const tokenizer::Tokenizer& tok_;
  std::vector<Entry> table_;
  size_t hits_ = 0;
};

}  // namespace servebench::record
