#include "transport/http1_response_parser.h"

#include <algorithm>
#include <cstring>

namespace servebench::transport {

namespace {

constexpr size_t kUnitLimit = 64 * 1024;  // a head, chunk-size line or trailer section

// End (one past the terminator) of a unit in `s`, searching from `from`; npos if it has not all
// arrived. A line ends at its first CR, which must be followed by LF (else the unit ends at the
// CR and fails to parse). A block ends at an empty line, or is a lone CRLF.
size_t unit_end(std::string_view s, bool block, size_t from) {
  if (!block) {
    const size_t cr = s.find('\r', from);
    if (cr == std::string_view::npos || cr + 1 == s.size()) return std::string_view::npos;
    return s[cr + 1] == '\n' ? cr + 2 : cr + 1;
  }
  if (s.size() >= 2 && s[0] == '\r' && s[1] == '\n') return 2;  // an empty trailer section
  for (size_t i = from; i + 4 <= s.size(); ++i) {
    const void* cr = std::memchr(s.data() + i, '\r', s.size() - 3 - i);
    if (cr == nullptr) break;
    i = static_cast<size_t>(static_cast<const char*>(cr) - s.data());
    if (std::memcmp(s.data() + i, "\r\n\r\n", 4) == 0) return i + 4;
  }
  return std::string_view::npos;
}

}  // namespace

void Http1ResponseParser::start(Sink* sink) {
  sink_ = sink;
  state_ = State::kHead;
  pending_.clear();
  remaining_ = 0;
  status_ = 0;
  crlf_seen_ = 0;
  until_close_ = false;
  framing_ = {};
}

size_t Http1ResponseParser::feed(std::string_view bytes, std::string* error) {
  size_t used = 0;
  while (used < bytes.size() && state_ != State::kDone && state_ != State::kFailed) {
    used += step(bytes.substr(used), error);
    if (!error->empty()) {
      state_ = State::kFailed;
      return 0;
    }
  }
  return used;
}

size_t Http1ResponseParser::step(std::string_view in, std::string* error) {
  switch (state_) {
    case State::kHead:
      return head(in, error);
    case State::kLength:
    case State::kChunkData:
    case State::kUntilClose:
      return body(in);
    case State::kChunkLine:
      return chunk_line(in, error);
    case State::kChunkEnd:
      return chunk_end(in, error);
    case State::kTrailers:
      return trailers(in, error);
    case State::kDone:
    case State::kFailed:
      break;
  }
  return 0;
}

size_t Http1ResponseParser::gather(std::string_view in, bool block, std::string_view* unit, std::string* error) {
  *unit = {};
  const size_t old = pending_.size();
  std::string_view hay = in;
  if (old > 0) {
    pending_.append(in);
    hay = pending_;
  }
  const size_t end = unit_end(hay, block, old >= 3 ? old - 3 : 0);
  if (end == std::string_view::npos || end > kUnitLimit) {
    keep(old > 0 ? std::string_view() : in, error);  // (appended above when old > 0)
    return in.size();
  }
  *unit = hay.substr(0, end);
  return end - old;
}

size_t Http1ResponseParser::keep(std::string_view in, std::string* error) {
  pending_.append(in);
  if (pending_.size() > kUnitLimit) *error = "response header too large";
  return in.size();
}

size_t Http1ResponseParser::head(std::string_view in, std::string* error) {
  size_t used;
  framing_ = {};
  if (pending_.empty()) {  // usually the whole head is in this read: parse it in place
    used = http1::parse_head(in, &status_, &framing_, error);
    if (used == 0) {
      if (error->empty()) return keep(in, error);
      return 0;
    }
    if (used > kUnitLimit) *error = "response header too large";
  } else {
    std::string_view unit;
    used = gather(in, /*block=*/true, &unit, error);
    if (unit.empty()) return used;
    if (http1::parse_head(unit, &status_, &framing_, error) != unit.size() && error->empty()) {
      *error = "malformed response head";
    }
    pending_.clear();
  }
  if (!error->empty()) return 0;
  if (status_ / 100 == 1) return used;  // interim response: the real head follows
  if (status_ == 204 || status_ == 304) {
    state_ = State::kDone;
  } else if (framing_.has_length) {
    remaining_ = framing_.length;
    state_ = remaining_ > 0 ? State::kLength : State::kDone;
  } else if (framing_.chunked) {
    state_ = State::kChunkLine;
  } else {
    until_close_ = true;
    state_ = State::kUntilClose;
  }
  sink_->on_response_headers(status_);
  return used;
}

size_t Http1ResponseParser::body(std::string_view in) {
  if (state_ == State::kUntilClose) {
    sink_->on_response_body(in);
    return in.size();
  }
  const size_t n = static_cast<size_t>(std::min<uint64_t>(remaining_, in.size()));
  remaining_ -= n;
  if (remaining_ == 0) state_ = state_ == State::kLength ? State::kDone : State::kChunkEnd;
  sink_->on_response_body(in.substr(0, n));
  return n;
}

size_t Http1ResponseParser::chunk_line(std::string_view in, std::string* error) {
  std::string_view unit;
  const size_t used = gather(in, /*block=*/false, &unit, error);
  if (unit.empty()) return used;
  if (!http1::parse_chunk_line(unit, &remaining_, error)) return used;
  pending_.clear();
  state_ = remaining_ > 0 ? State::kChunkData : State::kTrailers;
  return used;
}

size_t Http1ResponseParser::chunk_end(std::string_view in, std::string* error) {
  size_t i = 0;
  for (; i < in.size() && crlf_seen_ < 2; ++i, ++crlf_seen_) {
    if (in[i] != "\r\n"[crlf_seen_]) {
      *error = "chunk data not followed by CRLF";
      return i;
    }
  }
  if (crlf_seen_ == 2) {
    crlf_seen_ = 0;
    state_ = State::kChunkLine;
  }
  return i;
}

size_t Http1ResponseParser::trailers(std::string_view in, std::string* error) {
  std::string_view unit;
  const size_t used = gather(in, /*block=*/true, &unit, error);
  if (unit.empty()) return used;
  if (http1::parse_fields(unit, &framing_, error) != unit.size() && error->empty()) {
    *error = "malformed trailer section";
  }
  pending_.clear();
  state_ = State::kDone;
  return used;
}

bool Http1ResponseParser::feed_eof() {
  if (state_ == State::kUntilClose) state_ = State::kDone;
  return state_ == State::kDone;
}

bool Http1ResponseParser::done() const { return state_ == State::kDone; }

bool Http1ResponseParser::headers_done() const {
  return state_ != State::kHead && state_ != State::kFailed;
}

bool Http1ResponseParser::keep_alive() const {
  if (state_ != State::kDone || until_close_) return false;
  return framing_.http11 ? !framing_.close : framing_.keep_alive;
}

}  // namespace servebench::transport
