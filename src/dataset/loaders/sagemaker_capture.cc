#include "dataset/loaders/sagemaker_capture.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/base64.h"
#include "core/interrupt.h"
#include "dataset/loaders/json_fields.h"

namespace servebench::dataset::parsers {
namespace {

using namespace fields;  // NOLINT: the field readers

int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Status read_body(std::string_view body, FileTurn* t, const Where& w) {
  simdjson::dom::parser parser;
  element doc;
  object o;
  if (parser.parse(body.data(), body.size(), true).get(doc) != simdjson::SUCCESS || doc.get(o) != simdjson::SUCCESS)
    return w.fail("captureData.endpointInput.data", "is not a JSON object (a JSON request body)");
  element e;
  if (member(o, "messages", &e)) {
    if (!e.is_array()) return w.fail("messages", "expected an array");
    t->messages_json = simdjson::minify(e);
    if (member(o, "tools", &e)) t->tools_json = simdjson::minify(e);
  } else if (member(o, "prompt", &e) || member(o, "inputs", &e)) {
    std::string_view s;
    if (e.get(s) != simdjson::SUCCESS) return w.fail("prompt", "expected a string");
    t->texts.emplace_back(s);
  } else {
    return w.fail("captureData.endpointInput.data", "has no 'messages', 'prompt' or 'inputs'");
  }
  int64_t max = -1;
  SB_TRY_ASSIGN(max, int_field(o, "max_tokens", w, false, -1, 1));
  if (max < 0) {
    SB_TRY_ASSIGN(max, int_field(o, "max_completion_tokens", w, false, -1, 1));
  }
  object params;
  if (max < 0 && member(o, "parameters", &e) && e.get(params) == simdjson::SUCCESS) {
    SB_TRY_ASSIGN(max, int_field(params, "max_new_tokens", w, false, -1, 1));
  }
  t->output_length = max;
  return {};
}

// One capture line; false in *kept when it holds no input.
Status read_capture(object top, FileTurn* t, bool* kept, const Where& w) {
  element e;
  object cap, in, meta;
  if (!member(top, "captureData", &e) || e.get(cap) != simdjson::SUCCESS)
    return w.fail("captureData", "missing (a SageMaker Data Capture line has captureData)");
  *kept = member(cap, "endpointInput", &e) && e.get(in) == simdjson::SUCCESS;
  if (!*kept) return {};
  SB_TRY_ASSIGN(const std::string data, string_field(in, "data", w, true));
  SB_TRY_ASSIGN(std::string encoding, string_field(in, "encoding", w, false));
  std::transform(encoding.begin(), encoding.end(), encoding.begin(), [](unsigned char c) { return std::toupper(c); });
  std::string body;
  if (encoding == "BASE64") {
    if (!core::decode_base64(data, &body)) return w.fail("captureData.endpointInput.data", "is not valid base64");
  } else if (encoding.empty() || encoding == "JSON") {
    body = data;
  } else {
    return w.fail("encoding", fmt::format("'{}' is not supported (JSON or BASE64)", encoding));
  }
  SB_TRY(read_body(body, t, w));
  if (member(top, "eventMetadata", &e) && e.get(meta) == simdjson::SUCCESS) {
    SB_TRY_ASSIGN(const std::string when, string_field(meta, "inferenceTime", w, false));
    if (!when.empty() && !parse_iso8601_ms(when, &t->timestamp_ms))
      return w.fail("eventMetadata.inferenceTime", fmt::format("'{}' is not an ISO-8601 UTC time", when));
  }
  return {};
}

}  // namespace

bool parse_iso8601_ms(std::string_view s, double* ms) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, n = 0;
  const std::string str(s);
  if (std::sscanf(str.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6) return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || n != 19) return false;
  double frac = 0, scale = 0.1;
  size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10) frac += (s[i] - '0') * scale;
  }
  if (i < s.size() && s[i] == 'Z') {
    ++i;
  } else if (i + 6 == s.size() && s.substr(i) == "+00:00") {
    i += 6;
  }
  if (i != s.size()) return false;
  const int64_t days = days_from_civil(y, mo, d);
  *ms = (static_cast<double>(days * 86400 + h * 3600 + mi * 60 + sec) + frac) * 1000.0;
  return true;
}

void rebase_timestamps(DatasetFile* file) {
  double lo = std::numeric_limits<double>::infinity();
  for (const auto& c : file->conversations)
    for (const auto& t : c.turns)
      if (t.timestamp_ms >= 0) lo = std::min(lo, t.timestamp_ms);
  if (!std::isfinite(lo)) return;
  for (auto& c : file->conversations)
    for (auto& t : c.turns)
      if (t.timestamp_ms >= 0) t.timestamp_ms -= lo;
}

Result<DatasetFile> parse_sagemaker_capture(std::string_view text, const std::string& name) {
  SB_TRY_ASSIGN(DatasetFile file, parse_sagemaker_capture_absolute(text, name));
  rebase_timestamps(&file);
  return file;
}

Result<DatasetFile> parse_sagemaker_capture_absolute(std::string_view text, const std::string& name) {
  DatasetFile file;
  file.format = FileFormat::kSageMakerCapture;
  simdjson::dom::parser parser;
  int64_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    if (core::interrupt_requested()) return interrupted(name);
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const Where w{name, line_no};
    element doc;
    object top;
    if (parser.parse(line.data(), line.size(), true).get(doc) != simdjson::SUCCESS || doc.get(top) != simdjson::SUCCESS)
      return w.fail("(line)", "expected one JSON object per line");
    ++file.lines;
    FileTurn t;
    t.line = line_no;
    bool kept = false;
    SB_TRY(read_capture(top, &t, &kept, w));
    if (!kept) continue;
    file.has_timestamps |= t.timestamp_ms >= 0;
    FileConversation c;
    c.session_id = fmt::format("capture-{}", file.conversations.size());
    c.turns.push_back(std::move(t));
    file.conversations.push_back(std::move(c));
  }
  if (file.conversations.empty()) return Where{name, 0}.fail("(file)", "no captured request input");
  return file;
}

}  // namespace servebench::dataset::parsers
