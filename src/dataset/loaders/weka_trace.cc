#include "dataset/loaders/weka_trace.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "core/env.h"
#include "dataset/loaders/json_fields.h"
#include "dataset/loaders/weka_trace_model.h"

namespace servebench::dataset {
namespace parsers {
namespace {

using namespace fields;  // NOLINT: the field readers

using weka::Req;
using weka::Sub;
using weka::Trace;

Result<Req> read_request(object o, const Where& w) {
  SB_TRY(only_keys(o, {"t", "type", "model", "in", "out", "hash_ids", "input_types", "output_types",
                       "stop", "api_time", "think_time", "ttft"},
                   w));
  Req r;
  SB_TRY_ASSIGN(r.t, number_field(o, "t", w, true, 0));
  SB_TRY_ASSIGN(r.model, string_field(o, "model", w, true));
  SB_TRY_ASSIGN(r.in, int_field(o, "in", w, true, 0, 0));
  SB_TRY_ASSIGN(r.out, int_field(o, "out", w, true, 0, 0));
  SB_TRY_ASSIGN(r.hash_ids, int_list(o, "hash_ids", w));
  SB_TRY_ASSIGN(r.api_time, number_field(o, "api_time", w, false, -1));
  SB_TRY_ASSIGN(r.think_time, number_field(o, "think_time", w, false, -1));
  if (r.t < 0) return w.fail("t", "must be >= 0 (seconds from the session start)");
  return r;
}

// tool_tokens + system_tokens: the size of the first call's system message.
Result<int64_t> prefix_tokens(object o, const Where& w) {
  SB_TRY_ASSIGN(const int64_t tool, int_field(o, "tool_tokens", w, false, 0, 0));
  SB_TRY_ASSIGN(const int64_t system, int_field(o, "system_tokens", w, false, 0, 0));
  return tool + system;
}

Result<Sub> read_subagent(object o, const Where& w) {
  SB_TRY(only_keys(o, {"t", "type", "agent_id", "subagent_type", "status", "models", "requests",
                       "duration_ms", "total_tokens", "tool_use_count", "tool_tokens",
                       "system_tokens"},
                   w));
  Sub s;
  SB_TRY_ASSIGN(s.t, number_field(o, "t", w, true, 0));
  SB_TRY_ASSIGN(s.agent_id, string_field(o, "agent_id", w, true));
  SB_TRY_ASSIGN(s.duration_ms, number_field(o, "duration_ms", w, false, -1));
  SB_TRY_ASSIGN(s.prefix_tokens, prefix_tokens(o, w));
  SB_TRY_ASSIGN(const array reqs, array_field(o, "requests", w, true));
  for (element e : reqs) {
    object ro;
    if (e.get(ro) != simdjson::SUCCESS) return w.fail("requests", "expected objects");
    std::string type;
    SB_TRY_ASSIGN(type, string_field(ro, "type", w, true));
    if (type != "n" && type != "s")
      return w.fail("type", fmt::format("subagent call type '{}' (use \"n\" or \"s\")", type));
    SB_TRY_ASSIGN(Req r, read_request(ro, w));
    if (r.t < s.t) r.t += s.t;  // older recordings: relative to the marker
    s.reqs.push_back(std::move(r));
  }
  return s;
}

Result<Trace> read_trace(object top, const Where& w) {
  SB_TRY(only_keys(top, {"id", "models", "block_size", "hash_id_scope", "tool_tokens",
                         "system_tokens", "requests", "totals"},
                   w));
  Trace tr;
  SB_TRY_ASSIGN(tr.id, string_field(top, "id", w, true));
  if (tr.id.empty()) return w.fail("id", "must not be empty");
  SB_TRY_ASSIGN(const std::vector<std::string> models, string_list(top, "models", w));
  element me;
  if (!member(top, "models", &me)) return w.fail("models", "missing (add it)");
  SB_TRY_ASSIGN(tr.block_size, int_field(top, "block_size", w, true, 0, 1));
  SB_TRY_ASSIGN(const std::string scope, string_field(top, "hash_id_scope", w, true));
  if (scope != "local")
    return w.fail("hash_id_scope", fmt::format("'{}' is not supported (only \"local\")", scope));
  SB_TRY_ASSIGN(tr.prefix_tokens, prefix_tokens(top, w));
  SB_TRY_ASSIGN(const array reqs, array_field(top, "requests", w, true));
  std::unordered_set<std::string> agents;
  for (element e : reqs) {
    object o;
    if (e.get(o) != simdjson::SUCCESS) return w.fail("requests", "expected objects");
    SB_TRY_ASSIGN(const std::string type, string_field(o, "type", w, true));
    if (type == "n" || type == "s") {
      SB_TRY_ASSIGN(Req r, read_request(o, w));
      tr.parent.push_back(std::move(r));
    } else if (type == "subagent") {
      SB_TRY_ASSIGN(Sub s, read_subagent(o, w));
      s.anchor = static_cast<int64_t>(tr.parent.size()) - 1;
      if (s.anchor < 0) continue;  // no parent request before it: dropped (AIPerf)
      if (!agents.insert(s.agent_id).second)
        return w.fail("agent_id", fmt::format("'{}' appears twice (agent ids are unique)", s.agent_id));
      tr.subs.push_back(std::move(s));
    } else {
      return w.fail("type", fmt::format("'{}' is not a request type (use \"n\", \"s\" or \"subagent\")", type));
    }
  }
  if (tr.parent.empty()) return w.fail("requests", "no \"n\"/\"s\" request (add one)");
  return tr;
}

}  // namespace

Result<DatasetFile> parse_weka_trace(std::string_view text, const std::string& name, bool split_agents) {
  const Where w{name, 0};
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(text.data(), text.size(), true).get(doc) != simdjson::SUCCESS)
    return w.fail("(file)", "not valid JSON (a weka_trace file is one JSON object)");
  object top;
  if (doc.get(top) != simdjson::SUCCESS) return w.fail("(file)", "expected one JSON object");
  SB_TRY_ASSIGN(const Trace tr, read_trace(top, w));
  return weka::build_trace(tr, split_agents);
}

Result<DatasetFile> parse_weka_trace(std::string_view text, const std::string& name) {
  SB_TRY_ASSIGN(const bool split, weka_split_agents_from_env());
  return parse_weka_trace(text, name, split);
}

Status merge_weka_trace(DatasetFile* all, DatasetFile more, const std::string& name) {
  for (const auto& c : more.conversations)
    for (const auto& have : all->conversations)
      if (have.session_id == c.session_id)
        return make_error(ErrorCode::kParse,
                          fmt::format("{}: field 'id': trace '{}' appears in two files (ids are unique)",
                                      name, c.session_id));
  if (all->default_block_size == 0) all->default_block_size = more.default_block_size;
  all->has_timestamps |= more.has_timestamps;
  all->lines += more.lines;
  for (auto& c : more.conversations) all->conversations.push_back(std::move(c));
  return core::ok_status();
}

}  // namespace parsers

Result<bool> weka_split_agents_from_env() {
  for (core::EnvVar var : {core::EnvVar::kServebenchWekaSplitAgents, core::EnvVar::kAiperfWekaSplitFlattenedAgents}) {
    const auto& value = core::env().get(var);
    if (!value) continue;
    std::string v = *value;
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
    if (v == "false" || v == "0" || v == "no" || v == "off") return false;
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{}='{}' is not a boolean; use true or false", core::env_var_info(var).name, *value));
  }
  return true;
}

namespace {

// A root and every conversation below it, by index.
void family_of(const DatasetFile& f, size_t root, const std::unordered_map<std::string, size_t>& index,
               std::vector<size_t>* out) {
  out->push_back(root);
  for (const auto& b : f.conversations[root].branches)
    for (const auto& id : b.children) {
      auto it = index.find(id);
      if (it != index.end()) family_of(f, it->second, index, out);
    }
}

}  // namespace

Status apply_weka_options(DatasetFile* file, const WekaOptions& o) {
  if (file->format != FileFormat::kWekaTrace) return core::ok_status();
  if (o.think_time_only) {
    for (auto& c : file->conversations)
      for (size_t i = 1; i < c.turns.size(); ++i) {
        FileTurn& t = c.turns[i];
        t.timestamp_ms = -1;
        if (t.think_time_ms >= 0) t.delay_ms = t.think_time_ms;
      }
  }
  if (o.max_context_length <= 0) return core::ok_status();
  std::unordered_map<std::string, size_t> index;
  std::unordered_set<std::string> children;
  for (size_t i = 0; i < file->conversations.size(); ++i) {
    index.emplace(file->conversations[i].session_id, i);
    for (const auto& b : file->conversations[i].branches) children.insert(b.children.begin(), b.children.end());
  }
  std::vector<bool> drop(file->conversations.size(), false);
  size_t kept = 0;
  for (size_t i = 0; i < file->conversations.size(); ++i) {
    if (children.count(file->conversations[i].session_id)) continue;
    std::vector<size_t> family;
    family_of(*file, i, index, &family);
    int64_t peak = 0;
    for (size_t k : family)
      for (const auto& t : file->conversations[k].turns) peak = std::max(peak, t.input_length + t.output_length);
    const bool too_long = peak > o.max_context_length;
    for (size_t k : family) drop[k] = too_long;
    kept += too_long ? 0 : 1;
  }
  if (kept == 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--max-context-length {} drops every trace (raise it)", o.max_context_length));
  std::vector<FileConversation> out;
  for (size_t i = 0; i < file->conversations.size(); ++i)
    if (!drop[i]) out.push_back(std::move(file->conversations[i]));
  file->conversations = std::move(out);
  return core::ok_status();
}

}  // namespace servebench::dataset
