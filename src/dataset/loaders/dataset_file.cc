#include "dataset/loaders/dataset_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <simdjson.h>

#include "core/units.h"
#include "dataset/loaders/csv.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

struct NamedFormat {
  const char* name;
  FileFormat format;
};
constexpr NamedFormat kFormats[] = {
    {"single_turn", FileFormat::kSingleTurn},       {"multi_turn", FileFormat::kMultiTurn},
    {"random_pool", FileFormat::kRandomPool},       {"mooncake_trace", FileFormat::kMooncakeTrace},
    {"bailian_trace", FileFormat::kBailianTrace},   {"burst_gpt_trace", FileFormat::kBurstGptTrace},
    {"inputs_json", FileFormat::kInputsJson},       {"raw_payload", FileFormat::kRawPayload},
    {"sharegpt", FileFormat::kShareGpt},
};

// Error context: "file:line: field 'x': problem (fix)".
struct Where {
  const std::string& name;
  int64_t line;
  tl::unexpected<Error> fail(std::string_view field, std::string_view problem) const {
    if (line > 0)
      return make_error(ErrorCode::kParse,
                        fmt::format("{}:{}: field '{}': {}", name, line, field, problem));
    return make_error(ErrorCode::kParse, fmt::format("{}: field '{}': {}", name, field, problem));
  }
};

std::string to_json(element e) { return simdjson::minify(e); }

Result<std::string> get_string(object obj, std::string_view key, const Where& w, bool* present) {
  element e;
  *present = false;
  if (obj[key].get(e) != simdjson::SUCCESS || e.is_null()) return std::string();
  *present = true;
  std::string_view s;
  if (e.get(s) != simdjson::SUCCESS) return w.fail(key, "expected a string");
  return std::string(s);
}

// Numbers may be written as integers or floats; lengths must be whole and non-negative.
Result<double> get_number(object obj, std::string_view key, const Where& w, bool* present) {
  element e;
  *present = false;
  if (obj[key].get(e) != simdjson::SUCCESS || e.is_null()) return 0.0;
  *present = true;
  double v = 0;
  if (e.is_int64()) v = static_cast<double>(int64_t(e));
  else if (e.is_uint64()) v = static_cast<double>(uint64_t(e));
  else if (e.is_double()) v = double(e);
  else return w.fail(key, "expected a number");
  if (!std::isfinite(v)) return w.fail(key, "expected a finite number");
  return v;
}

Result<int64_t> get_count(object obj, std::string_view key, const Where& w, bool allow_zero) {
  bool present = false;
  auto v = get_number(obj, key, w, &present);
  if (!v) return tl::unexpected(v.error());
  if (!present) return int64_t{-1};
  if (*v != std::floor(*v) || *v < (allow_zero ? 0 : 1))
    return w.fail(key, allow_zero ? "expected a whole number >= 0" : "expected a whole number > 0");
  return static_cast<int64_t>(*v);
}

Status read_timing(object obj, FileTurn* t, const Where& w, double timestamp_scale) {
  bool has_ts = false, has_delay = false;
  auto ts = get_number(obj, "timestamp", w, &has_ts);
  if (!ts) return tl::unexpected(ts.error());
  auto delay = get_number(obj, "delay", w, &has_delay);
  if (!delay) return tl::unexpected(delay.error());
  if (has_ts && has_delay) return w.fail("timestamp", "give either 'timestamp' or 'delay', not both");
  if (has_ts) {
    if (*ts < 0) return w.fail("timestamp", "must be >= 0");
    t->timestamp_ms = *ts * timestamp_scale;
  }
  if (has_delay) {
    if (*delay < 0) return w.fail("delay", "must be >= 0");
    t->delay_ms = *delay;
  }
  return {};
}

Status read_extra(object obj, FileTurn* t, const Where& w) {
  element e;
  if (obj["extra"].get(e) != simdjson::SUCCESS || e.is_null()) return {};
  if (!e.is_object()) return w.fail("extra", "expected a JSON object");
  t->extra_json = to_json(e);
  return {};
}

Status read_hash_ids(object obj, FileTurn* t, const Where& w) {
  element e;
  if (obj["hash_ids"].get(e) != simdjson::SUCCESS || e.is_null()) return {};
  simdjson::dom::array arr;
  if (e.get(arr) != simdjson::SUCCESS) return w.fail("hash_ids", "expected an array of integers");
  for (element v : arr) {
    int64_t id = 0;
    if (v.get(id) != simdjson::SUCCESS) return w.fail("hash_ids", "expected an array of integers");
    t->hash_ids.push_back(id);
  }
  return {};
}

Result<std::string> session_id_of(object obj, const Where& w) {
  element e;
  if (obj["session_id"].get(e) != simdjson::SUCCESS || e.is_null()) return std::string();
  if (e.is_string()) return std::string(std::string_view(e));
  if (e.is_int64() || e.is_uint64()) return to_json(e);
  return w.fail("session_id", "expected a string or an integer");
}

constexpr std::string_view kMediaFields[] = {"image", "images", "audio", "audios", "video", "videos"};

// single_turn / random_pool / multi_turn turn objects.
Status read_text_turn(object obj, FileTurn* t, const Where& w, bool allow_timing) {
  element e;
  const bool has_text = obj["text"].get(e) == simdjson::SUCCESS && !e.is_null();
  element es;
  const bool has_texts = obj["texts"].get(es) == simdjson::SUCCESS && !es.is_null();
  if (has_text && has_texts) return w.fail("text", "give either 'text' or 'texts', not both");
  if (has_text) {
    std::string_view s;
    if (e.get(s) != simdjson::SUCCESS) return w.fail("text", "expected a string");
    t->texts.emplace_back(s);
  } else if (has_texts) {
    simdjson::dom::array arr;
    if (es.get(arr) != simdjson::SUCCESS) return w.fail("texts", "expected an array");
    for (element v : arr) {
      std::string_view s;
      if (v.get(s) == simdjson::SUCCESS) {
        t->texts.emplace_back(s);
        continue;
      }
      // {name, contents: [str...]} form.
      simdjson::dom::array contents;
      if (v.is_object() && v["contents"].get(contents) == simdjson::SUCCESS) {
        for (element c : contents) {
          if (c.get(s) != simdjson::SUCCESS) return w.fail("texts", "contents must be strings");
          t->texts.emplace_back(s);
        }
        continue;
      }
      return w.fail("texts", "expected strings or {name, contents} objects");
    }
  }
  for (auto media : kMediaFields) {
    if (obj[media].get(e) == simdjson::SUCCESS && !e.is_null())
      return make_error(ErrorCode::kUnsupported,
                        fmt::format("{}:{}: field '{}': images, audio and video inputs are not "
                                    "supported yet (text-only datasets)", w.name, w.line, media));
  }
  if (t->texts.empty()) return w.fail("text", "each entry needs 'text' or 'texts'");
  bool present = false;
  auto role = get_string(obj, "role", w, &present);
  if (!role) return tl::unexpected(role.error());
  t->role = *role;
  auto osl = get_count(obj, "output_length", w, false);
  if (!osl) return tl::unexpected(osl.error());
  t->output_length = *osl;
  if (allow_timing) {
    if (auto s = read_timing(obj, t, w, 1.0); !s) return s;
  }
  return read_extra(obj, t, w);
}

Status read_mooncake(object obj, FileTurn* t, const Where& w) {
  element e;
  int modes = 0;
  auto il = get_count(obj, "input_length", w, false);
  if (!il) return tl::unexpected(il.error());
  if (*il >= 0) {
    t->input_length = *il;
    ++modes;
  }
  bool present = false;
  auto text = get_string(obj, "text_input", w, &present);
  if (!text) return tl::unexpected(text.error());
  if (present) {
    t->texts.push_back(*text);
    ++modes;
  }
  if (obj["messages"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    if (!e.is_array()) return w.fail("messages", "expected an array of messages");
    t->messages_json = to_json(e);
    ++modes;
    element tools;
    if (obj["tools"].get(tools) == simdjson::SUCCESS && !tools.is_null()) t->tools_json = to_json(tools);
  }
  if (obj["payload"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    if (!e.is_object()) return w.fail("payload", "expected a JSON object");
    t->payload_json = to_json(e);
    ++modes;
  }
  if (modes != 1)
    return w.fail("input_length",
                  modes == 0 ? "each row needs one of 'input_length', 'text_input', 'messages', 'payload'"
                             : "give exactly one of 'input_length', 'text_input', 'messages', 'payload'");
  if (auto s = read_hash_ids(obj, t, w); !s) return s;
  if (!t->hash_ids.empty() && t->input_length < 0)
    return w.fail("hash_ids", "needs 'input_length'");
  auto osl = get_count(obj, "output_length", w, false);
  if (!osl) return tl::unexpected(osl.error());
  t->output_length = *osl;
  if (auto s = read_timing(obj, t, w, 1.0); !s) return s;
  return read_extra(obj, t, w);
}

// Groups turns by session id in first-appearance order; rows without one are their own session.
class SessionGrouper {
 public:
  explicit SessionGrouper(DatasetFile* out) : out_(out) {}
  void add(const std::string& session_id, FileTurn turn) {
    if (session_id.empty()) {
      out_->conversations.push_back({fmt::format("row-{}", out_->conversations.size()), {}});
      out_->conversations.back().turns.push_back(std::move(turn));
      return;
    }
    auto [it, inserted] = index_.try_emplace(session_id, out_->conversations.size());
    if (inserted) out_->conversations.push_back({session_id, {}});
    out_->conversations[it->second].turns.push_back(std::move(turn));
  }

 private:
  DatasetFile* out_;
  std::unordered_map<std::string, size_t> index_;
};

Result<DatasetFile> parse_jsonl(std::string_view text, FileFormat format, const std::string& name);
Result<DatasetFile> parse_whole_json(std::string_view text, FileFormat format, const std::string& name);
Result<DatasetFile> parse_burst_gpt(std::string_view text, const std::string& name);

}  // namespace

const char* file_format_name(FileFormat format) {
  for (const auto& f : kFormats)
    if (f.format == format) return f.name;
  return "unknown";
}

Result<FileFormat> parse_file_format(std::string_view name) {
  for (const auto& f : kFormats)
    if (name == f.name) return f.format;
  std::string known;
  for (const auto& f : kFormats) known += (known.empty() ? "" : ", ") + std::string(f.name);
  return make_error(ErrorCode::kInvalidArgument,
                    fmt::format("--custom-dataset-type '{}' is not known (use one of: {})", name, known));
}

Result<DatasetFile> parse_dataset_text(std::string_view text, FileFormat format,
                                       const std::string& name) {
  switch (format) {
    case FileFormat::kInputsJson:
    case FileFormat::kShareGpt:
      return parse_whole_json(text, format, name);
    case FileFormat::kBurstGptTrace:
      return parse_burst_gpt(text, name);
    default:
      return parse_jsonl(text, format, name);
  }
}

namespace {

Result<DatasetFile> parse_jsonl(std::string_view text, FileFormat format, const std::string& name) {
  DatasetFile out;
  out.format = format;
  if (format == FileFormat::kMooncakeTrace) out.default_block_size = 512;
  if (format == FileFormat::kBailianTrace) out.default_block_size = 16;
  SessionGrouper grouper(&out);
  simdjson::dom::parser parser;
  // Bailian: chat_id → conversation index, to chain children onto their parent's session.
  std::unordered_map<int64_t, size_t> bailian_chat;
  int64_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      if (nl == text.size()) break;
      continue;
    }
    ++out.lines;
    Where w{name, line_no};
    element doc;
    if (auto err = parser.parse(line.data(), line.size(), true).get(doc); err)
      return make_error(ErrorCode::kParse, fmt::format("{}:{}: invalid JSON ({})", name, line_no,
                                                       simdjson::error_message(err)));
    object obj;
    if (doc.get(obj) != simdjson::SUCCESS)
      return make_error(ErrorCode::kParse, fmt::format("{}:{}: expected a JSON object per line", name, line_no));
    FileTurn turn;
    turn.line = line_no;
    switch (format) {
      case FileFormat::kSingleTurn:
      case FileFormat::kRandomPool: {
        if (auto s = read_text_turn(obj, &turn, w, format == FileFormat::kSingleTurn); !s)
          return tl::unexpected(s.error());
        std::string sid;
        if (format == FileFormat::kSingleTurn) {
          auto r = session_id_of(obj, w);
          if (!r) return tl::unexpected(r.error());
          sid = *r;
        }
        grouper.add(sid, std::move(turn));
        break;
      }
      case FileFormat::kMultiTurn: {
        auto sid = session_id_of(obj, w);
        if (!sid) return tl::unexpected(sid.error());
        simdjson::dom::array turns;
        if (obj["turns"].get(turns) != simdjson::SUCCESS) return w.fail("turns", "expected an array of turns");
        FileConversation conv{sid->empty() ? fmt::format("session-{}", out.conversations.size()) : *sid, {}};
        for (element te : turns) {
          object to;
          if (te.get(to) != simdjson::SUCCESS) return w.fail("turns", "each turn must be an object");
          FileTurn t;
          t.line = line_no;
          if (auto s = read_text_turn(to, &t, w, true); !s) return tl::unexpected(s.error());
          conv.turns.push_back(std::move(t));
        }
        if (conv.turns.empty()) return w.fail("turns", "must not be empty");
        out.conversations.push_back(std::move(conv));
        break;
      }
      case FileFormat::kMooncakeTrace: {
        if (auto s = read_mooncake(obj, &turn, w); !s) return tl::unexpected(s.error());
        auto sid = session_id_of(obj, w);
        if (!sid) return tl::unexpected(sid.error());
        grouper.add(*sid, std::move(turn));
        break;
      }
      case FileFormat::kBailianTrace: {
        auto chat = get_count(obj, "chat_id", w, true);
        if (!chat) return tl::unexpected(chat.error());
        if (*chat < 0) return w.fail("chat_id", "is required");
        bool present = false;
        auto parent = get_number(obj, "parent_chat_id", w, &present);
        if (!parent) return tl::unexpected(parent.error());
        auto il = get_count(obj, "input_length", w, false);
        if (!il) return tl::unexpected(il.error());
        if (*il < 0) return w.fail("input_length", "is required");
        turn.input_length = *il;
        auto osl = get_count(obj, "output_length", w, false);
        if (!osl) return tl::unexpected(osl.error());
        turn.output_length = *osl;
        if (auto s = read_hash_ids(obj, &turn, w); !s) return tl::unexpected(s.error());
        if (auto s = read_timing(obj, &turn, w, 1000.0); !s) return tl::unexpected(s.error());
        const int64_t parent_id = present ? static_cast<int64_t>(*parent) : -1;
        auto it = parent_id >= 0 ? bailian_chat.find(parent_id) : bailian_chat.end();
        size_t conv_index;
        if (it == bailian_chat.end()) {
          conv_index = out.conversations.size();
          out.conversations.push_back({fmt::format("chat-{}", *chat), {}});
        } else {
          conv_index = it->second;
        }
        out.conversations[conv_index].turns.push_back(std::move(turn));
        bailian_chat[*chat] = conv_index;
        break;
      }
      case FileFormat::kRawPayload: {
        element p;
        if (obj["payload"].get(p) != simdjson::SUCCESS || !p.is_object())
          return w.fail("payload", "expected {\"payload\": {...}} per line");
        turn.payload_json = to_json(p);
        auto sid = session_id_of(obj, w);
        if (!sid) return tl::unexpected(sid.error());
        grouper.add(*sid, std::move(turn));
        break;
      }
      default:
        return make_error(ErrorCode::kInternal, "unexpected JSONL format");
    }
    if (nl == text.size()) break;
  }
  for (const auto& c : out.conversations)
    for (const auto& t : c.turns)
      if (t.timestamp_ms >= 0) out.has_timestamps = true;
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse, fmt::format("{}: no records found (the file is empty)", name));
  return out;
}

Result<DatasetFile> parse_whole_json(std::string_view text, FileFormat format, const std::string& name) {
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
      simdjson::dom::array payloads;
      if (entry["payloads"].get(payloads) != simdjson::SUCCESS)
        return w.fail("payloads", "each data entry needs a 'payloads' array");
      FileConversation conv;
      std::string_view sid;
      conv.session_id = entry["session_id"].get(sid) == simdjson::SUCCESS
                            ? std::string(sid) : fmt::format("session-{}", out.conversations.size());
      for (element p : payloads) {
        if (!p.is_object()) return w.fail("payloads", "each payload must be a JSON object");
        FileTurn t;
        t.payload_json = to_json(p);
        conv.turns.push_back(std::move(t));
      }
      if (!conv.turns.empty()) out.conversations.push_back(std::move(conv));
    }
  } else {  // ShareGPT: [{"id", "conversations": [{"from", "value"}, ...]}]
    simdjson::dom::array items;
    if (doc.get(items) != simdjson::SUCCESS) return w.fail("(root)", "expected a JSON array of conversations");
    for (element item : items) {
      simdjson::dom::array turns;
      if (item["conversations"].get(turns) != simdjson::SUCCESS) continue;  // vLLM skips these too
      FileConversation conv;
      std::string_view id;
      conv.session_id = item["id"].get(id) == simdjson::SUCCESS ? std::string(id)
                                                                : fmt::format("sharegpt-{}", out.conversations.size());
      FileTurn pending;
      bool have_prompt = false;
      for (element m : turns) {
        std::string_view from, value;
        if (m["from"].get(from) != simdjson::SUCCESS || m["value"].get(value) != simdjson::SUCCESS) continue;
        if (from == "human" || from == "user") {
          pending = FileTurn{};
          pending.texts.emplace_back(value);
          have_prompt = true;
        } else if (have_prompt && (from == "gpt" || from == "assistant" || from == "chatgpt")) {
          pending.expected_output = std::string(value);
          conv.turns.push_back(std::move(pending));
          have_prompt = false;
        }
      }
      if (!conv.turns.empty()) out.conversations.push_back(std::move(conv));
    }
  }
  out.lines = static_cast<int64_t>(out.conversations.size());
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse, fmt::format("{}: no usable conversations found", name));
  return out;
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
                                  "'Response tokens'", name));
  std::vector<std::string_view> row;
  while (csv.next_row(&row)) {
    const int64_t line = csv.line();
    if (row.size() == 1 && row[0].empty()) continue;
    Where w{name, line};
    auto field = [&](int c) -> std::string_view { return c < static_cast<int>(row.size()) ? row[c] : ""; };
    auto num = [&](int c, const char* label) -> Result<double> {
      auto v = core::parse_double(field(c));
      if (!v) return w.fail(label, fmt::format("expected a number, got '{}'", field(c)));
      return *v;
    };
    auto ts = num(c_ts, "Timestamp");
    if (!ts) return tl::unexpected(ts.error());
    auto in = num(c_in, "Request tokens");
    if (!in) return tl::unexpected(in.error());
    auto o = num(c_out, "Response tokens");
    if (!o) return tl::unexpected(o.error());
    if (*in < 1 || *in != std::floor(*in)) return w.fail("Request tokens", "expected a whole number > 0");
    if (*o < 0 || *o != std::floor(*o)) return w.fail("Response tokens", "expected a whole number >= 0");
    FileTurn t;
    t.line = line;
    t.timestamp_ms = *ts * 1000.0;
    t.input_length = static_cast<int64_t>(*in);
    t.output_length = *o >= 1 ? static_cast<int64_t>(*o) : 1;
    ++out.lines;
    out.conversations.push_back({fmt::format("row-{}", out.conversations.size()), {std::move(t)}});
  }
  out.has_timestamps = !out.conversations.empty();
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse, fmt::format("{}: no rows after the header", name));
  return out;
}

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("--input-file '{}' cannot be read (check the path)", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

FileFormat guess_from_object(object obj) {
  element e;
  auto has = [&](const char* k) { return obj[k].get(e) == simdjson::SUCCESS; };
  if (has("turns")) return FileFormat::kMultiTurn;
  if (has("chat_id") && has("parent_chat_id")) return FileFormat::kBailianTrace;
  if (has("input_length") || has("hash_ids") || has("text_input") || has("messages"))
    return FileFormat::kMooncakeTrace;
  if (has("payload") && !has("text") && !has("texts")) return FileFormat::kRawPayload;
  return FileFormat::kSingleTurn;
}

}  // namespace

Result<FileFormat> detect_file_format(const std::string& path) {
  std::error_code ec;
  std::string file = path;
  if (fs::is_directory(path, ec)) {
    auto files = files_in(path);
    if (files.empty())
      return make_error(ErrorCode::kInvalidArgument, fmt::format("--input-file '{}' is an empty folder", path));
    auto inner = detect_file_format(files.front());
    if (!inner) return inner;
    return *inner == FileFormat::kRawPayload ? FileFormat::kRawPayload : FileFormat::kRandomPool;
  }
  auto text = read_file(file);
  if (!text) return tl::unexpected(text.error());
  std::string_view t = *text;
  const size_t first = t.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return make_error(ErrorCode::kParse, fmt::format("--input-file '{}' is empty", path));
  if (t.substr(first).starts_with("Timestamp,") || path.ends_with(".csv")) return FileFormat::kBurstGptTrace;
  if (t[first] == '[') return FileFormat::kShareGpt;
  size_t nl = t.find('\n', first);
  std::string_view line = t.substr(first, nl == std::string_view::npos ? std::string_view::npos : nl - first);
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(line.data(), line.size(), true).get(doc) != simdjson::SUCCESS) {
    // Not one object per line: a whole-file JSON object is AIPerf's inputs.json.
    element whole;
    if (parser.parse(t.data(), t.size(), true).get(whole) == simdjson::SUCCESS && whole.is_object() &&
        whole["data"].error() == simdjson::SUCCESS)
      return FileFormat::kInputsJson;
    return make_error(ErrorCode::kParse,
                      fmt::format("--input-file '{}': cannot tell its format (line 1 is not JSON); "
                                  "set --custom-dataset-type", path));
  }
  object obj;
  if (doc.get(obj) != simdjson::SUCCESS)
    return make_error(ErrorCode::kParse, fmt::format("--input-file '{}': line 1 is not a JSON object", path));
  if (obj["data"].error() == simdjson::SUCCESS) return FileFormat::kInputsJson;
  return guess_from_object(obj);
}

Result<DatasetFile> load_dataset_file(const std::string& path, std::optional<FileFormat> format) {
  if (!format) {
    auto f = detect_file_format(path);
    if (!f) return tl::unexpected(f.error());
    format = *f;
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (*format != FileFormat::kRandomPool && *format != FileFormat::kRawPayload)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--input-file '{}' is a folder; only random_pool and raw_payload "
                                    "read folders", path));
    DatasetFile all;
    all.format = *format;
    for (const auto& f : files_in(path)) {
      auto text = read_file(f);
      if (!text) return tl::unexpected(text.error());
      auto one = parse_dataset_text(*text, *format, f);
      if (!one) return one;
      all.lines += one->lines;
      if (*format == FileFormat::kRawPayload) {
        // One file = one multi-turn session.
        FileConversation conv{fs::path(f).filename().string(), {}};
        for (auto& c : one->conversations)
          for (auto& t : c.turns) conv.turns.push_back(std::move(t));
        all.conversations.push_back(std::move(conv));
      } else {
        for (auto& c : one->conversations) all.conversations.push_back(std::move(c));
      }
    }
    return all;
  }
  auto text = read_file(path);
  if (!text) return tl::unexpected(text.error());
  return parse_dataset_text(*text, *format, path);
}

}  // namespace servebench::dataset
