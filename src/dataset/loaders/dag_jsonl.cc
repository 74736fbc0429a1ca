#include "dataset/loaders/dag_jsonl.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <unordered_map>

#include "core/interrupt.h"
#include "dataset/loaders/json_fields.h"

namespace servebench::dataset::parsers {
namespace {

using namespace fields;  // NOLINT: the field readers

struct Ctx {
  std::map<std::string, int32_t> model_ranks;
  std::unordered_map<std::string, std::string> fork_parent;  // child -> its FORK parent
};

Status read_messages(object o, FileTurn* t, int32_t turn_index, const Where& w) {
  SB_TRY_ASSIGN(const array msgs, array_field(o, "messages", w, true));
  std::vector<std::pair<std::string, std::string>> all;
  for (element m : msgs) {
    object mo;
    if (m.get(mo) != simdjson::SUCCESS) return w.fail("messages", "expected objects with a 'role'");
    SB_TRY_ASSIGN(std::string role, string_field(mo, "role", w, true));
    if (role == "system" && turn_index > 0)
      return w.fail("messages", "a 'system' message is allowed on turn 0 only (move it)");
    element c;
    std::string content;
    if (member(mo, "content", &c)) {
      std::string_view s;
      content = c.get(s) == simdjson::SUCCESS ? std::string(s) : simdjson::minify(c);
    }
    all.emplace_back(std::move(role), std::move(content));
  }
  if (all.empty()) return w.fail("messages", "must not be empty (add a message)");
  t->role = all.back().first;
  t->texts = {all.back().second};
  all.pop_back();
  t->lead_messages = std::move(all);
  return {};
}

// `tools` and `extra` become one object merged into the body.
Status read_body_members(object o, FileTurn* t, const Where& w) {
  element tools, extra;
  const bool has_tools = member(o, "tools", &tools);
  const bool has_extra = member(o, "extra", &extra);
  if (has_tools && !tools.is_array()) return w.fail("tools", "expected an array of objects");
  if (has_extra && !extra.is_object()) return w.fail("extra", "expected a JSON object");
  if (!has_tools && !has_extra) return {};
  std::string body = has_extra ? simdjson::minify(extra) : "{}";
  if (has_tools) {
    body.pop_back();
    body += std::string(body.size() > 1 ? "," : "") + "\"tools\":" + simdjson::minify(tools) + "}";
  }
  t->extra_json = std::move(body);
  return {};
}

Status read_forks(element e, int32_t turn, int32_t turns, FileConversation* conv, Ctx* ctx, const Where& w) {
  array arr;
  if (e.get(arr) != simdjson::SUCCESS) return w.fail("forks", "expected an array");
  for (element f : arr) {
    FileBranch b;
    b.after_turn = turn;
    b.fork = true;
    std::string_view id;
    object fo;
    if (f.get(id) == simdjson::SUCCESS) {
      if (turn + 1 != turns)
        return w.fail("forks", "a bare fork ends the parent: only on its last turn (or use background)");
      b.children.emplace_back(id);
    } else if (f.get(fo) == simdjson::SUCCESS) {
      SB_TRY(only_keys(fo, {"child", "background"}, w));
      SB_TRY_ASSIGN(std::string child, string_field(fo, "child", w, true));
      b.children.push_back(std::move(child));
    } else {
      return w.fail("forks", "expected strings or {\"child\", \"background\"} objects");
    }
    auto [it, fresh] = ctx->fork_parent.emplace(b.children.front(), conv->session_id);
    if (!fresh && it->second != conv->session_id)
      return w.fail("forks", fmt::format("'{}' is already forked by '{}' (one FORK parent only)",
                                         b.children.front(), it->second));
    conv->branches.push_back(std::move(b));
  }
  return {};
}

Status read_spawns(element e, int32_t turn, int32_t turns, FileConversation* conv, const Where& w) {
  array arr;
  if (e.get(arr) != simdjson::SUCCESS) return w.fail("spawns", "expected an array");
  FileBranch bare;
  bare.after_turn = turn;
  bare.join_turn = turn + 1 < turns ? turn + 1 : -1;
  for (element s : arr) {
    std::string_view id;
    object so;
    if (s.get(id) == simdjson::SUCCESS) {
      bare.children.emplace_back(id);
    } else if (s.get(so) == simdjson::SUCCESS) {
      SB_TRY(only_keys(so, {"children", "join_at"}, w));
      FileBranch b;
      b.after_turn = turn;
      SB_TRY_ASSIGN(b.children, string_list(so, "children", w));
      if (b.children.empty()) return w.fail("spawns", "'children' must not be empty");
      SB_TRY_ASSIGN(const int64_t k, int_field(so, "join_at", w, false, turn + 1, 0));
      if (k <= turn || k >= turns)
        return w.fail("join_at", fmt::format("{} must lie after the spawn turn {} and before {}", k, turn, turns));
      b.join_turn = static_cast<int32_t>(k);
      conv->branches.push_back(std::move(b));
    } else {
      return w.fail("spawns", "expected strings or {\"children\", \"join_at\"} objects");
    }
  }
  if (!bare.children.empty()) conv->branches.push_back(std::move(bare));
  return {};
}

Status read_turn(object o, int32_t index, int32_t turns, FileConversation* conv, Ctx* ctx, const Where& w) {
  SB_TRY(only_keys(o, {"messages", "model", "max_tokens", "tools", "extra", "forks", "spawns", "delay"}, w));
  FileTurn t;
  t.line = w.line;
  SB_TRY(read_messages(o, &t, index, w));
  SB_TRY(read_body_members(o, &t, w));
  element mt;
  if (member(o, "max_tokens", &mt) && (mt.is_bool() || !mt.is_number()))
    return w.fail("max_tokens", "expected a whole number >= 1");
  SB_TRY_ASSIGN(t.output_length, int_field(o, "max_tokens", w, false, -1, 1));
  SB_TRY_ASSIGN(const std::string model, string_field(o, "model", w, false));
  if (!model.empty())
    t.model_rank = ctx->model_ranks.emplace(model, static_cast<int32_t>(ctx->model_ranks.size())).first->second;
  SB_TRY_ASSIGN(const double delay, number_field(o, "delay", w, false, -1));
  if (delay < 0 && member(o, "delay", &mt)) return w.fail("delay", "must be >= 0 (ms)");
  t.delay_ms = delay;
  element e;
  if (member(o, "forks", &e)) SB_TRY(read_forks(e, index, turns, conv, ctx, w));
  if (member(o, "spawns", &e)) SB_TRY(read_spawns(e, index, turns, conv, w));
  conv->turns.push_back(std::move(t));
  return {};
}

Result<FileConversation> read_line(object top, Ctx* ctx, const Where& w) {
  SB_TRY(only_keys(top, {"session_id", "turns", "pre_session_spawns"}, w));
  FileConversation conv;
  SB_TRY_ASSIGN(conv.session_id, string_field(top, "session_id", w, true));
  if (conv.session_id.empty()) return w.fail("session_id", "must not be empty");
  SB_TRY_ASSIGN(const array turns, array_field(top, "turns", w, true));
  const auto n = static_cast<int32_t>(turns.size());
  if (n == 0) return w.fail("turns", "must not be empty (add a turn)");
  int32_t i = 0;
  for (element e : turns) {
    object o;
    if (e.get(o) != simdjson::SUCCESS) return w.fail("turns", "expected objects");
    SB_TRY(read_turn(o, i++, n, &conv, ctx, w));
  }
  SB_TRY_ASSIGN(std::vector<std::string> pre, string_list(top, "pre_session_spawns", w));
  if (!pre.empty()) {
    FileBranch b;
    b.after_turn = -1;
    b.children = std::move(pre);
    conv.branches.push_back(std::move(b));
  }
  for (const auto& b : conv.branches) {
    std::set<std::string> seen;
    for (const auto& c : b.children)
      if (!seen.insert(c).second) return w.fail("spawns", fmt::format("child '{}' is listed twice", c));
  }
  return conv;
}

}  // namespace

Result<DatasetFile> parse_dag_jsonl(std::string_view text, const std::string& name) {
  DatasetFile file;
  file.format = FileFormat::kDagJsonl;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  simdjson::dom::parser parser;
  Ctx ctx;
  std::set<std::string> ids;
  int64_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
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
    SB_TRY_ASSIGN(FileConversation conv, read_line(top, &ctx, w));
    if (!ids.insert(conv.session_id).second)
      return w.fail("session_id", fmt::format("'{}' appears twice (session ids are unique)", conv.session_id));
    ++file.lines;
    file.conversations.push_back(std::move(conv));
  }
  if (file.conversations.empty()) return Where{name, 0}.fail("(file)", "no conversation (the file is empty)");
  return file;
}

}  // namespace servebench::dataset::parsers
