// A deliberately naive, whole-buffer SSE parser used as the oracle for SseParser's property
// tests and fuzz target. It shares no code with SseParser: it splits the complete stream into
// lines first and only then applies the field rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace servebench::testing {

struct RefEvent {
  std::string event;
  std::string data;
  bool operator==(const RefEvent&) const = default;
};

inline std::vector<RefEvent> reference_sse_parse(std::string_view s) {
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  std::vector<std::string> lines;
  std::string cur;
  bool terminated = true;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\r' || c == '\n') {
      lines.push_back(cur);
      cur.clear();
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
      terminated = true;
    } else {
      cur.push_back(c);
      terminated = false;
    }
  }
  if (!terminated) lines.push_back(cur);
  lines.push_back("");  // end of stream dispatches a pending event

  std::vector<RefEvent> out;
  std::string data, event;
  bool has_data = false;
  for (const std::string& line : lines) {
    if (line.empty()) {
      if (has_data) out.push_back({event, data});
      data.clear();
      event.clear();
      has_data = false;
      continue;
    }
    if (line[0] == ':') continue;
    std::string field = line, value;
    size_t colon = line.find(':');
    if (colon != std::string::npos) {
      field = line.substr(0, colon);
      value = line.substr(colon + 1);
      if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    }
    if (field == "data") {
      if (has_data) data += '\n';
      data += value;
      has_data = true;
    } else if (field == "event") {
      event = value;
    }
  }
  return out;
}

}  // namespace servebench::testing
