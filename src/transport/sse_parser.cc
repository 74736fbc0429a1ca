#include "transport/sse_parser.h"

#include <cstring>

namespace servebench::transport {

namespace {

constexpr char kBom[] = "\xEF\xBB\xBF";

// Index of the first '\r' or '\n' in `s`, or npos. memchr for '\n' is the common case (SSE
// servers almost always use "\n"); a '\r' before it is found with a second bounded memchr.
size_t find_line_end(std::string_view s) {
  const char* begin = s.data();
  const char* nl = static_cast<const char*>(std::memchr(begin, '\n', s.size()));
  size_t limit = nl ? static_cast<size_t>(nl - begin) : s.size();
  const char* cr = static_cast<const char*>(std::memchr(begin, '\r', limit));
  if (cr) return static_cast<size_t>(cr - begin);
  if (nl) return limit;
  return std::string_view::npos;
}

}  // namespace

void SseParser::reset() {
  line_.clear();
  clear_event();
  last_was_cr_ = false;
  bom_checked_ = false;
  bom_matched_ = 0;
}

void SseParser::clear_event() {
  data_.clear();
  event_.clear();
  data_view_ = {};
  data_in_view_ = false;
  has_data_ = false;
  pending_reset_ = false;
}

bool SseParser::process_line(std::string_view line, bool line_in_input, SseEvent* out) {
  if (line.empty()) {
    if (!has_data_) {
      event_.clear();  // an event without data is discarded, name included
      return false;
    }
    out->event = event_;
    out->data = data_in_view_ ? data_view_ : std::string_view(data_);
    pending_reset_ = true;
    return true;
  }
  if (line[0] == ':') return false;  // comment
  size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (!has_data_) {
      has_data_ = true;
      if (line_in_input) {
        data_view_ = value;
        data_in_view_ = true;
      } else {
        data_.assign(value);
      }
    } else {
      if (data_in_view_) {
        data_.assign(data_view_);
        data_in_view_ = false;
      }
      data_.push_back('\n');
      data_.append(value);
    }
  } else if (field == "event") {
    event_.assign(value);
  }
  // id:, retry: and unknown fields are ignored: a benchmark client does not reconnect.
  return false;
}

// The common event whole at the start of the input with nothing carried over: "data:<value>\n\n"
// (one optional space after the colon, no '\r' in the line), dispatched as the general path
// would: its data viewed in the input. Anything else (a partial line, another field, "\r", a
// multi-line event) returns false and takes the general path.
bool SseParser::whole_data_event(std::string_view* input, SseEvent* out) {
  const std::string_view in = *input;
  if (!line_.empty() || has_data_ || !event_.empty() || bom_matched_ != 0 || last_was_cr_ ||
      in.size() < 7 || std::memcmp(in.data(), "data:", 5) != 0)
    return false;
  const char* begin = in.data();
  const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', in.size()));
  if (nl == nullptr || nl + 1 == begin + in.size() || nl[1] != '\n') return false;
  const size_t line_len = static_cast<size_t>(nl - begin);
  if (std::memchr(begin, '\r', line_len) != nullptr) return false;
  const size_t value_at = line_len > 5 && begin[5] == ' ' ? 6 : 5;
  out->event = {};
  out->data = std::string_view(begin + value_at, line_len - value_at);
  *input = in.substr(line_len + 2);
  bom_checked_ = true;  // a stream opening with "data:" has no BOM
  return true;
}

bool SseParser::next_event(std::string_view* input, SseEvent* out) {
  if (pending_reset_) clear_event();
  if (whole_data_event(input, out)) return true;
  std::string_view in = *input;

  // A BOM may only open the stream, and it may itself arrive split across feeds.
  while (!bom_checked_ && !in.empty()) {
    if (in[0] == kBom[bom_matched_]) {
      in.remove_prefix(1);
      if (++bom_matched_ == 3) {
        bom_checked_ = true;
        bom_matched_ = 0;
      }
    } else {
      // Not a BOM: the bytes matched so far belong to the first line.
      line_.append(kBom, bom_matched_);
      bom_matched_ = 0;
      bom_checked_ = true;
    }
  }

  if (last_was_cr_ && !in.empty()) {
    if (in[0] == '\n') in.remove_prefix(1);  // the second half of a split "\r\n"
    last_was_cr_ = false;
  }

  while (!in.empty()) {
    size_t pos = find_line_end(in);
    if (pos == std::string_view::npos) {
      line_.append(in);
      in = {};
      break;
    }
    const bool from_input = line_.empty();
    std::string_view line;
    if (from_input) {
      line = in.substr(0, pos);
    } else {
      line_.append(in.data(), pos);
      line = line_;
    }
    const char term = in[pos];
    in.remove_prefix(pos + 1);
    if (term == '\r') {
      if (in.empty()) {
        last_was_cr_ = true;
      } else if (in[0] == '\n') {
        in.remove_prefix(1);
      }
    }
    const bool dispatched = process_line(line, from_input, out);
    line_.clear();  // process_line copied anything it keeps out of line_
    if (dispatched) {
      *input = in;
      return true;
    }
  }

  // The input is about to go away: keep our own copy of a data line that still views it.
  if (data_in_view_) {
    data_.assign(data_view_);
    data_in_view_ = false;
    data_view_ = {};
  }
  *input = in;
  return false;
}

bool SseParser::flush_event(SseEvent* out) {
  if (pending_reset_) clear_event();
  if (!bom_checked_ && bom_matched_ > 0) {
    line_.append(kBom, bom_matched_);
    bom_matched_ = 0;
  }
  if (!line_.empty()) {
    process_line(line_, false, out);
    line_.clear();
  }
  last_was_cr_ = false;
  // A dispatch at end of stream needs no blank line: process an empty line.
  return process_line({}, false, out);
}

}  // namespace servebench::transport
