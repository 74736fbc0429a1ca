// Whole-file dataset formats: inputs.json and ShareGPT (one JSON document), BurstGPT (CSV).
#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>

#include "core/interrupt.h"
#include "core/units.h"
#include "dataset/loaders/csv.h"
#include "dataset/loaders/parsers.h"

namespace servebench::dataset::parsers {

using simdjson::dom::element;

Result<DatasetFile> parse_whole_json(std::string_view text, FileFormat format,
                                     const std::string& name) {
  DatasetFile out;
  out.format = format;
  simdjson::dom::parser parser;
  element doc;
  if (auto err = parser.parse(text.data(), text.size(), true).get(doc); err)
    return make_error(ErrorCode::kParse,
                      fmt::format("{}: invalid JSON ({})", name, simdjson::error_message(err)));
  Where w{name, 0};
  if (format == FileFormat::kInputsJson) {
    simdjson::dom::array data;
    if (doc["data"].get(data) != simdjson::SUCCESS)
      return w.fail("data", "expected {\"data\": [{\"session_id\": ..., \"payloads\": [...]}]}");
    for (element entry : data) {
      if (core::interrupt_requested()) return interrupted(name);
      simdjson::dom::array payloads;
      if (entry["payloads"].get(payloads) != simdjson::SUCCESS)
        return w.fail("payloads", "each data entry needs a 'payloads' array");
      FileConversation conv;
      std::string_view sid;
      conv.session_id = entry["session_id"].get(sid) == simdjson::SUCCESS
                            ? std::string(sid)
                            : fmt::format("session-{}", out.conversations.size());
      for (element p : payloads) {
        if (!p.is_object()) return w.fail("payloads", "each payload must be a JSON object");
        FileTurn t;
        t.payload_json = simdjson::minify(p);
        conv.turns.push_back(std::move(t));
      }
      if (!conv.turns.empty()) out.conversations.push_back(std::move(conv));
    }
  } else {  // ShareGPT: [{"id", "conversations": [{"from", "value"}, ...]}]
    simdjson::dom::array items;
    if (doc.get(items) != simdjson::SUCCESS)
      return w.fail("(root)", "expected a JSON array of conversations");
    for (element item : items) {
      if (core::interrupt_requested()) return interrupted(name);
      FileConversation conv;
      std::string_view id;
      bool has_id = false;
      read_sharegpt_item(item, &id, &has_id, [&](std::string_view prompt, std::string_view reply) {
        FileTurn t;
        t.texts.emplace_back(prompt);
        t.expected_output = std::string(reply);
        conv.turns.push_back(std::move(t));
      });
      if (conv.turns.empty()) continue;
      conv.session_id = has_id ? std::string(id) : fmt::format("sharegpt-{}", out.conversations.size());
      out.conversations.push_back(std::move(conv));
    }
  }
  out.lines = static_cast<int64_t>(out.conversations.size());
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse, fmt::format("{}: no usable conversations found", name));
  return out;
}

bool read_sharegpt_item(const element& item, std::string_view* id, bool* has_id,
                        const std::function<void(std::string_view, std::string_view)>& on_exchange) {
  simdjson::dom::array turns;
  if (item["conversations"].get(turns) != simdjson::SUCCESS) return false;  // vLLM skips these too
  *has_id = item["id"].get(*id) == simdjson::SUCCESS;
  std::string_view prompt;
  bool have_prompt = false;
  for (element m : turns) {
    std::string_view from, value;
    if (m["from"].get(from) != simdjson::SUCCESS || m["value"].get(value) != simdjson::SUCCESS) continue;
    if (from == "human" || from == "user") {
      prompt = value;
      have_prompt = true;
    } else if (have_prompt && (from == "gpt" || from == "assistant" || from == "chatgpt")) {
      on_exchange(prompt, value);
      have_prompt = false;
    }
  }
  return true;
}

Result<DatasetFile> parse_burst_gpt(std::string_view text, const std::string& name) {
  DatasetFile out;
  out.format = FileFormat::kBurstGptTrace;
  CsvReader csv(text);
  std::vector<std::string_view> header;
  if (!csv.next_row(&header))
    return make_error(ErrorCode::kParse, fmt::format("{}: empty CSV file", name));
  auto col = [&](std::string_view want) -> int {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == want) return static_cast<int>(i);
    return -1;
  };
  const int c_ts = col("Timestamp"), c_in = col("Request tokens"), c_out = col("Response tokens");
  if (c_ts < 0 || c_in < 0 || c_out < 0)
    return make_error(ErrorCode::kParse,
                      fmt::format("{}:1: expected BurstGPT columns 'Timestamp', 'Request tokens', "
                                  "'Response tokens'",
                                  name));
  std::vector<std::string_view> row;
  while (csv.next_row(&row)) {
    if (core::interrupt_requested()) return interrupted(name);
    const int64_t line = csv.line();
    if (row.size() == 1 && row[0].empty()) continue;
    Where w{name, line};
    auto field = [&](int c) -> std::string_view {
      return c < static_cast<int>(row.size()) ? row[c] : "";
    };
    auto num = [&](int c, const char* label) -> Result<double> {
      auto v = core::parse_double(field(c));
      if (!v) return w.fail(label, fmt::format("expected a number, got '{}'", field(c)));
      return *v;
    };
    SB_TRY_ASSIGN(const double ts, num(c_ts, "Timestamp"));
    SB_TRY_ASSIGN(const double in, num(c_in, "Request tokens"));
    SB_TRY_ASSIGN(const double o, num(c_out, "Response tokens"));
    if (in < 1 || in != std::floor(in))
      return w.fail("Request tokens", "expected a whole number > 0");
    if (o < 0 || o != std::floor(o))
      return w.fail("Response tokens", "expected a whole number >= 0");
    FileTurn t;
    t.line = line;
    t.timestamp_ms = ts * 1000.0;
    t.input_length = static_cast<int64_t>(in);
    t.output_length = o >= 1 ? static_cast<int64_t>(o) : 1;
    ++out.lines;
    out.conversations.push_back({fmt::format("row-{}", out.conversations.size()), {std::move(t)}});
  }
  out.has_timestamps = !out.conversations.empty();
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse, fmt::format("{}: no rows after the header", name));
  return out;
}

}  // namespace servebench::dataset::parsers
