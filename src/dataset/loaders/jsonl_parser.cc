// JSONL dataset formats: one JSON object per line (see parsers.h).
#include <fmt/format.h>
#include <simdjson.h>

#include <cmath>
#include <unordered_map>

#include "core/interrupt.h"
#include "dataset/loaders/parsers.h"

namespace servebench::dataset::parsers {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

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
  if (e.is_int64())
    v = static_cast<double>(int64_t(e));
  else if (e.is_uint64())
    v = static_cast<double>(uint64_t(e));
  else if (e.is_double())
    v = double(e);
  else
    return w.fail(key, "expected a number");
  if (!std::isfinite(v)) return w.fail(key, "expected a finite number");
  return v;
}

Result<int64_t> get_count(object obj, std::string_view key, const Where& w, bool allow_zero) {
  bool present = false;
  SB_TRY_ASSIGN(const double v, get_number(obj, key, w, &present));
  if (!present) return int64_t{-1};
  if (v != std::floor(v) || v < (allow_zero ? 0 : 1))
    return w.fail(key, allow_zero ? "expected a whole number >= 0" : "expected a whole number > 0");
  return static_cast<int64_t>(v);
}

Status read_timing(object obj, FileTurn* t, const Where& w, double timestamp_scale) {
  bool has_ts = false, has_delay = false;
  SB_TRY_ASSIGN(const double ts, get_number(obj, "timestamp", w, &has_ts));
  SB_TRY_ASSIGN(const double delay, get_number(obj, "delay", w, &has_delay));
  if (has_ts && has_delay)
    return w.fail("timestamp", "give either 'timestamp' or 'delay', not both");
  if (has_ts) {
    if (ts < 0) return w.fail("timestamp", "must be >= 0");
    t->timestamp_ms = ts * timestamp_scale;
  }
  if (has_delay) {
    if (delay < 0) return w.fail("delay", "must be >= 0");
    t->delay_ms = delay;
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

// image/images, audio/audios, video/videos: a string, or (plural) an array of strings; the
// singular and plural forms of one kind exclude each other.
Status read_media(object obj, FileTurn* t, const Where& w) {
  struct Kind {
    std::string_view one, many;
    core::MediaKind kind;
  };
  constexpr Kind kKinds[] = {{"image", "images", core::MediaKind::kImage},
                             {"audio", "audios", core::MediaKind::kAudio},
                             {"video", "videos", core::MediaKind::kVideo}};
  for (const Kind& k : kKinds) {
    element one, many;
    const bool has_one = obj[k.one].get(one) == simdjson::SUCCESS && !one.is_null();
    const bool has_many = obj[k.many].get(many) == simdjson::SUCCESS && !many.is_null();
    if (has_one && has_many)
      return w.fail(k.one, fmt::format("give either '{}' or '{}', not both", k.one, k.many));
    auto add = [&](element v, std::string_view field) -> Status {
      std::string_view s;
      if (v.get(s) != simdjson::SUCCESS || s.empty())
        return w.fail(field, "expected a file path, an http(s) URL or a data URL (a non-empty string)");
      t->media.push_back({k.kind, std::string(s), std::string(field), w.line});
      return {};
    };
    if (has_one) SB_TRY(add(one, k.one));
    if (!has_many) continue;
    simdjson::dom::array arr;
    if (many.get(arr) != simdjson::SUCCESS) return w.fail(k.many, "expected an array of strings");
    for (element v : arr) SB_TRY(add(v, k.many));
  }
  return {};
}

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
        std::string_view name;
        if (v["name"].get(name) == simdjson::SUCCESS && !name.empty())
          t->text_names.resize(t->texts.size());  // the unnamed texts before this group
        for (element c : contents) {
          if (c.get(s) != simdjson::SUCCESS) return w.fail("texts", "contents must be strings");
          t->texts.emplace_back(s);
          if (!name.empty()) t->text_names.resize(t->texts.size(), std::string(name));
        }
        continue;
      }
      return w.fail("texts", "expected strings or {name, contents} objects");
    }
  }
  SB_TRY(read_media(obj, t, w));
  if (t->texts.empty() && t->media.empty())
    return w.fail("text", "each entry needs 'text', 'texts' or a media field (image, audio, video)");
  bool present = false;
  SB_TRY_ASSIGN(t->role, get_string(obj, "role", w, &present));
  SB_TRY_ASSIGN(t->output_length, get_count(obj, "output_length", w, false));
  if (allow_timing) SB_TRY(read_timing(obj, t, w, 1.0));
  return read_extra(obj, t, w);
}

Status read_mooncake(object obj, FileTurn* t, const Where& w) {
  element e;
  int modes = 0;
  SB_TRY_ASSIGN(const int64_t il, get_count(obj, "input_length", w, false));
  if (il >= 0) {
    t->input_length = il;
    ++modes;
  }
  bool present = false;
  SB_TRY_ASSIGN(std::string text, get_string(obj, "text_input", w, &present));
  if (present) {
    t->texts.push_back(std::move(text));
    ++modes;
  }
  if (obj["messages"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    if (!e.is_array()) return w.fail("messages", "expected an array of messages");
    t->messages_json = to_json(e);
    ++modes;
    element tools;
    if (obj["tools"].get(tools) == simdjson::SUCCESS && !tools.is_null())
      t->tools_json = to_json(tools);
  }
  if (obj["payload"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    if (!e.is_object()) return w.fail("payload", "expected a JSON object");
    t->payload_json = to_json(e);
    ++modes;
  }
  if (modes != 1)
    return w.fail("input_length",
                  modes == 0
                      ? "each row needs one of 'input_length', 'text_input', 'messages', 'payload'"
                      : "give exactly one of 'input_length', 'text_input', 'messages', 'payload'");
  SB_TRY(read_hash_ids(obj, t, w));
  if (!t->hash_ids.empty() && t->input_length < 0)
    return w.fail("hash_ids", "needs 'input_length'");
  SB_TRY_ASSIGN(t->output_length, get_count(obj, "output_length", w, false));
  SB_TRY(read_timing(obj, t, w, 1.0));
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

// Rows are parsed in order; the state that spans rows.
struct JsonlState {
  explicit JsonlState(DatasetFile* file) : out(file), grouper(file) {}
  DatasetFile* out;
  SessionGrouper grouper;
  // Bailian: chat_id → conversation index, to chain children onto their parent's session.
  std::unordered_map<int64_t, size_t> bailian_chat;
};

Status read_multi_turn(object obj, int64_t line_no, const Where& w, JsonlState* st) {
  SB_TRY_ASSIGN(const std::string sid, session_id_of(obj, w));
  simdjson::dom::array turns;
  if (obj["turns"].get(turns) != simdjson::SUCCESS)
    return w.fail("turns", "expected an array of turns");
  FileConversation conv{
      sid.empty() ? fmt::format("session-{}", st->out->conversations.size()) : sid, {}};
  for (element te : turns) {
    object to;
    if (te.get(to) != simdjson::SUCCESS) return w.fail("turns", "each turn must be an object");
    FileTurn t;
    t.line = line_no;
    SB_TRY(read_text_turn(to, &t, w, true));
    conv.turns.push_back(std::move(t));
  }
  if (conv.turns.empty()) return w.fail("turns", "must not be empty");
  st->out->conversations.push_back(std::move(conv));
  return core::ok_status();
}

Status read_bailian(object obj, FileTurn turn, const Where& w, JsonlState* st) {
  SB_TRY_ASSIGN(const int64_t chat, get_count(obj, "chat_id", w, true));
  if (chat < 0) return w.fail("chat_id", "is required");
  bool present = false;
  SB_TRY_ASSIGN(const double parent, get_number(obj, "parent_chat_id", w, &present));
  SB_TRY_ASSIGN(turn.input_length, get_count(obj, "input_length", w, false));
  if (turn.input_length < 0) return w.fail("input_length", "is required");
  SB_TRY_ASSIGN(turn.output_length, get_count(obj, "output_length", w, false));
  SB_TRY(read_hash_ids(obj, &turn, w));
  SB_TRY(read_timing(obj, &turn, w, 1000.0));
  DatasetFile* out = st->out;
  const int64_t parent_id = present ? static_cast<int64_t>(parent) : -1;
  auto it = parent_id >= 0 ? st->bailian_chat.find(parent_id) : st->bailian_chat.end();
  size_t conv_index;
  if (it == st->bailian_chat.end()) {
    conv_index = out->conversations.size();
    out->conversations.push_back({fmt::format("chat-{}", chat), {}});
  } else {
    conv_index = it->second;
  }
  out->conversations[conv_index].turns.push_back(std::move(turn));
  st->bailian_chat[chat] = conv_index;
  return core::ok_status();
}

Status read_row(object obj, FileFormat format, int64_t line_no, const Where& w, JsonlState* st) {
  FileTurn turn;
  turn.line = line_no;
  switch (format) {
    case FileFormat::kSingleTurn:
    case FileFormat::kRandomPool: {
      SB_TRY(read_text_turn(obj, &turn, w, format == FileFormat::kSingleTurn));
      std::string sid;
      if (format == FileFormat::kSingleTurn) {
        SB_TRY_ASSIGN(sid, session_id_of(obj, w));
      }
      st->grouper.add(sid, std::move(turn));
      return core::ok_status();
    }
    case FileFormat::kMultiTurn:
      return read_multi_turn(obj, line_no, w, st);
    case FileFormat::kMooncakeTrace: {
      SB_TRY(read_mooncake(obj, &turn, w));
      SB_TRY_ASSIGN(const std::string sid, session_id_of(obj, w));
      st->grouper.add(sid, std::move(turn));
      return core::ok_status();
    }
    case FileFormat::kBailianTrace:
      return read_bailian(obj, std::move(turn), w, st);
    case FileFormat::kRawPayload: {
      element p;
      if (obj["payload"].get(p) != simdjson::SUCCESS || !p.is_object())
        return w.fail("payload", "expected {\"payload\": {...}} per line");
      turn.payload_json = to_json(p);
      SB_TRY_ASSIGN(const std::string sid, session_id_of(obj, w));
      st->grouper.add(sid, std::move(turn));
      return core::ok_status();
    }
    default:
      return make_error(ErrorCode::kInternal, "unexpected JSONL format");
  }
}

// The next line of `text` from *pos (without its '\n' and trailing whitespace); false at the end.
bool next_line(std::string_view text, size_t* pos, std::string_view* line) {
  if (*pos > text.size()) return false;
  size_t nl = text.find('\n', *pos);
  if (nl == std::string_view::npos) nl = text.size();
  *line = text.substr(*pos, nl - *pos);
  *pos = nl + 1;
  while (!line->empty() && (line->back() == '\r' || line->back() == ' ' || line->back() == '\t'))
    line->remove_suffix(1);
  return true;
}

}  // namespace

tl::unexpected<Error> Where::fail(std::string_view field, std::string_view problem) const {
  if (line > 0)
    return make_error(ErrorCode::kParse,
                      fmt::format("{}:{}: field '{}': {}", name, line, field, problem));
  return make_error(ErrorCode::kParse, fmt::format("{}: field '{}': {}", name, field, problem));
}

tl::unexpected<Error> interrupted(const std::string& name) {
  return make_error(ErrorCode::kInterrupted, fmt::format("interrupted while reading '{}'", name));
}

Result<DatasetFile> parse_jsonl(std::string_view text, FileFormat format, const std::string& name) {
  DatasetFile out;
  out.format = format;
  if (format == FileFormat::kMooncakeTrace) out.default_block_size = 512;
  if (format == FileFormat::kBailianTrace) out.default_block_size = 16;
  JsonlState state(&out);
  simdjson::dom::parser parser;
  int64_t line_no = 0;
  size_t pos = 0;
  std::string_view line;
  while (next_line(text, &pos, &line)) {
    ++line_no;
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    // One relaxed load per record: Ctrl-C stops a multi-GB file within a few milliseconds.
    if (core::interrupt_requested()) return interrupted(name);
    ++out.lines;
    Where w{name, line_no};
    element doc;
    if (auto err = parser.parse(line.data(), line.size(), true).get(doc); err)
      return make_error(ErrorCode::kParse, fmt::format("{}:{}: invalid JSON ({})", name, line_no,
                                                       simdjson::error_message(err)));
    object obj;
    if (doc.get(obj) != simdjson::SUCCESS)
      return make_error(ErrorCode::kParse,
                        fmt::format("{}:{}: expected a JSON object per line", name, line_no));
    SB_TRY(read_row(obj, format, line_no, w, &state));
  }
  for (const auto& c : out.conversations)
    for (const auto& t : c.turns)
      if (t.timestamp_ms >= 0) out.has_timestamps = true;
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse,
                      fmt::format("{}: no records found (the file is empty)", name));
  return out;
}

}  // namespace servebench::dataset::parsers
