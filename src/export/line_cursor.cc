#include "export/line_cursor.h"

namespace servebench::exporter {

namespace {

constexpr size_t kScratchBytes = size_t{64} << 10;

struct Scratch {
  std::unique_ptr<char[]> buf{new char[kScratchBytes]};
  bool busy = false;
};

Scratch& thread_scratch() {
  thread_local Scratch scratch;
  return scratch;
}

}  // namespace

LineCursor::LineCursor(std::string* out) : out_(out) {
  Scratch& s = thread_scratch();
  if (!s.busy) {
    s.busy = true;
    owns_thread_buffer_ = true;
    begin_ = s.buf.get();
  } else {
    own_.reset(new char[kScratchBytes]);
    begin_ = own_.get();
  }
  p_ = begin_;
  end_ = begin_ + kScratchBytes;
}

LineCursor::LineCursor(JsonlWriter::Direct* direct) : direct_(direct) {
  advance_direct(nullptr, 0);
}

LineCursor::~LineCursor() {
  flush();
  if (owns_thread_buffer_) thread_scratch().busy = false;
}

void LineCursor::flush() {
  if (direct_ != nullptr) return advance_direct(p_, 0);
  out_->append(begin_, static_cast<size_t>(p_ - begin_));
  p_ = begin_;
}

// Commits the bytes up to `upto` to the Direct and continues in the free range it hands back.
void LineCursor::advance_direct(char* upto, size_t n) {
  const auto [begin, end] = direct_->advance(upto, n);
  begin_ = p_ = begin;
  end_ = end;
}

void LineCursor::make_room(size_t n) {
  if (direct_ != nullptr) return advance_direct(p_, n);
  flush();
  if (n <= kScratchBytes) return;
  // One piece larger than the scratch buffer (a huge string): a buffer of its own.
  if (owns_thread_buffer_) {
    thread_scratch().busy = false;
    owns_thread_buffer_ = false;
  }
  own_.reset(new char[n]);
  begin_ = p_ = own_.get();
  end_ = begin_ + n;
}

namespace {

// True when one of the 8 bytes of `w` must be escaped in JSON: below 0x20, '"' or '\\'. The
// "has a byte less than n" and "has a zero byte" tests are exact for the word as a whole.
bool needs_escape8(uint64_t w) {
  constexpr uint64_t k01 = 0x0101010101010101ULL;
  constexpr uint64_t k80 = 0x8080808080808080ULL;
  const uint64_t control = (w - k01 * 0x20) & ~w & k80;
  const uint64_t q = w ^ (k01 * '"');
  const uint64_t b = w ^ (k01 * '\\');
  return (control | ((q - k01) & ~q & k80) | ((b - k01) & ~b & k80)) != 0;
}

// The length of the prefix of `text` that is known to need no escaping (whole 8-byte words).
size_t clean_prefix(std::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, text.data() + i, 8);
    if (needs_escape8(w)) break;
  }
  return i;
}

}  // namespace

void LineCursor::json_string(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  room(text.size() * 6 + 2);
  char* p = p_;
  *p++ = '"';
  size_t run_start = 0;
  for (size_t i = clean_prefix(text); i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    std::memcpy(p, text.data() + run_start, i - run_start);
    p += i - run_start;
    run_start = i + 1;
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      case '\b': *p++ = 'b'; break;
      case '\f': *p++ = 'f'; break;
      default:
        *p++ = 'u';
        *p++ = '0';
        *p++ = '0';
        *p++ = kHex[c >> 4];
        *p++ = kHex[c & 0xF];
    }
  }
  if (run_start < text.size()) {
    std::memcpy(p, text.data() + run_start, text.size() - run_start);
    p += text.size() - run_start;
  }
  *p++ = '"';
  p_ = p;
}

}  // namespace servebench::exporter
