// LineCursor: the record lines' appender. A profile_export.jsonl line is ~3 KB in ~200 pieces
// (keys, integers, numbers, short strings); appending each piece to a std::string costs a call
// and a capacity check per piece. The cursor writes them into a per-thread scratch buffer
// instead (literal keys with compile-time lengths, numbers and integers straight into it) and
// appends the buffer to the output string at the end, or when it fills up.
//
// The bytes written are exactly what the std::string helpers (text_util.h) append.
//
// A cursor on a JsonlWriter::Direct writes straight into the writer's block instead (no scratch,
// no output string): a batch's lines go to the file without being copied.
//
// Thread safety: one cursor per thread at a time (the scratch buffer is thread_local; a nested
// cursor on the same thread gets a buffer of its own). REQUIRES: nothing else appends to `out`
// while the cursor is alive, except through flushed() (which syncs first).
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "export/jsonl_writer.h"
#include "export/text_util.h"

namespace servebench::exporter {

// A constant text written many times (a metric's `"tag":{"value":`): kept in a 64-byte block
// that the cursor copies whole, a constant-size copy instead of a call to memcpy.
class PaddedText {
 public:
  static constexpr size_t kBytes = 64;
  void assign(std::string_view text) {
    text_ = std::string(text);
    if (text.size() <= kBytes) std::memcpy(block_, text.data(), text.size());
  }
  const char* block() const { return block_; }
  bool padded() const { return text_.size() <= kBytes; }
  const std::string& text() const { return text_; }

 private:
  char block_[kBytes] = {};
  std::string text_;
};

class LineCursor {
 public:
  explicit LineCursor(std::string* out);
  // REQUIRES: `direct` is usable (operator bool) and outlives the cursor.
  explicit LineCursor(JsonlWriter::Direct* direct);
  ~LineCursor();
  LineCursor(const LineCursor&) = delete;
  LineCursor& operator=(const LineCursor&) = delete;

  // A literal: its length is known at compile time.
  template <size_t N>
  void lit(const char (&s)[N]) {
    room(N - 1);
    std::memcpy(p_, s, N - 1);
    p_ += N - 1;
  }
  void put(char c) {
    room(1);
    *p_++ = c;
  }
  void raw(std::string_view s) {
    room(s.size());
    if (s.empty()) return;  // memcpy from a null data() is undefined, even for 0 bytes
    std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
  }
  void integer(int64_t v) {
    room(24);
    p_ = write_int(p_, v);
  }
  // append_scaled_number / append_json_number.
  void scaled(double base, double divisor) {
    room(kMaxNumberChars);
    p_ = write_scaled_number(p_, base, divisor);
  }
  void number(double v) {
    room(kMaxNumberChars);
    p_ = write_json_number(p_, v);
  }
  void raw(const PaddedText& t) {
    if (!t.padded()) return raw(t.text());
    room(PaddedText::kBytes);
    std::memcpy(p_, t.block(), PaddedText::kBytes);
    p_ += t.text().size();
  }
  // A quoted JSON string, as core::append_json_string.
  void json_string(std::string_view s);
  // `"k":` for a key that needs no escaping.
  void key(std::string_view k) {
    room(k.size() + 3);
    *p_++ = '"';
    std::memcpy(p_, k.data(), k.size());
    p_ += k.size();
    *p_++ = '"';
    *p_++ = ':';
  }

  // The output string with everything written so far, for a std::string appender (rare parts
  // of a line); the cursor goes on after it. REQUIRES: a cursor on a string.
  std::string* flushed() {
    flush();
    return out_;
  }

 private:
  void room(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) make_room(n);
  }
  void make_room(size_t n);
  void flush();
  void advance_direct(char* upto, size_t n);

  std::string* out_ = nullptr;
  JsonlWriter::Direct* direct_ = nullptr;
  char* begin_;
  char* p_;
  char* end_;
  std::unique_ptr<char[]> own_;  // a nested cursor's buffer
  bool owns_thread_buffer_ = false;
};

}  // namespace servebench::exporter
