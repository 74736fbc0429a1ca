#include "dataset/loaders/weka_trace.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/rng.h"
#include "dataset/loaders/json_fields.h"
#include "dataset/loaders/weka_chains.h"

namespace servebench::dataset {
namespace parsers {
namespace {

using namespace fields;  // NOLINT: the field readers

constexpr double kJoinSlackS = 1e-6;

struct Req {
  double t = 0;
  std::string model;
  int64_t in = 0;
  int64_t out = 0;
  std::vector<int64_t> hash_ids;
  double api_time = -1;
  double think_time = -1;
};

struct Sub {
  double t = 0;
  std::string agent_id;
  double duration_ms = -1;
  int64_t prefix_tokens = 0;  // tool_tokens + system_tokens
  int64_t anchor = -1;  // index of the last parent request before the marker
  std::vector<Req> reqs;
};

struct Trace {
  std::string id;
  int64_t block_size = 0;
  int64_t prefix_tokens = 0;  // tool_tokens + system_tokens
  std::vector<Req> parent;
  std::vector<Sub> subs;
};

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

// Hash ids are local to a trace: the same id in two traces is a different block.
int64_t scoped_id(uint64_t scope, int64_t id) {
  return static_cast<int64_t>((scope ^ (static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ULL)) >> 2);
}

// Blocks of one request: at most ceil(in / block_size) (some recordings also hash the tail).
std::vector<int64_t> request_blocks(const Req& r, int64_t bs, uint64_t scope) {
  const auto keep = static_cast<size_t>((r.in + bs - 1) / bs);
  std::vector<int64_t> out;
  for (size_t i = 0; i < r.hash_ids.size() && i < keep; ++i) out.push_back(scoped_id(scope, r.hash_ids[i]));
  return out;
}

double start_to_start_ms(const Req& prev, const Req& cur) { return std::max(0.0, (cur.t - prev.t) * 1000.0); }

FileTurn make_turn(const Req& r, int64_t bs, uint64_t scope, const std::map<std::string, int32_t>& ranks) {
  FileTurn t;
  t.input_length = r.in;
  t.output_length = std::max<int64_t>(1, r.out);
  t.hash_ids = request_blocks(r, bs, scope);
  t.model_rank = ranks.at(r.model);
  t.think_time_ms = r.think_time >= 0 ? r.think_time * 1000.0 : -1;
  t.api_time_ms = r.api_time >= 0 ? r.api_time * 1000.0 : -1;
  t.recorded_t_ms = r.t * 1000.0;
  t.recorded_output_length = r.out;
  return t;
}

std::map<std::string, int32_t> model_ranks(const Trace& tr) {
  std::map<std::string, int32_t> ranks;
  auto add = [&](const std::string& m) { ranks.emplace(m, static_cast<int32_t>(ranks.size())); };
  for (const auto& r : tr.parent) add(r.model);
  for (const auto& s : tr.subs)
    for (const auto& r : s.reqs) add(r.model);
  return ranks;
}

// Theoretical prefix-cache hits: every request in t order (parent before subagent calls at the
// same t), one set of produced blocks; a hit is a leading block already produced.
void stamp_prefix_hits(const Trace& tr, std::vector<FileTurn*>& parent_turns,
                       std::vector<std::vector<FileTurn*>>& sub_turns) {
  struct At {
    double t;
    int outer;
    size_t chain;
    size_t turn;
    const Req* req;
    FileTurn* out;
  };
  std::vector<At> all;
  for (size_t i = 0; i < tr.parent.size(); ++i) all.push_back({tr.parent[i].t, 0, 0, i, &tr.parent[i], parent_turns[i]});
  for (size_t s = 0; s < tr.subs.size(); ++s)
    for (size_t i = 0; i < tr.subs[s].reqs.size(); ++i)
      all.push_back({tr.subs[s].reqs[i].t, 1, s, i, &tr.subs[s].reqs[i], sub_turns[s][i]});
  std::stable_sort(all.begin(), all.end(), [](const At& a, const At& b) {
    if (a.t != b.t) return a.t < b.t;
    if (a.outer != b.outer) return a.outer < b.outer;
    return a.chain != b.chain ? a.chain < b.chain : a.turn < b.turn;
  });
  std::unordered_set<int64_t> produced;
  for (const At& a : all) {
    int64_t hits = 0;
    for (int64_t id : a.out->hash_ids) {
      if (!produced.count(id)) break;
      ++hits;
    }
    a.out->prefix_hit_blocks = hits;
    a.out->prefix_total_blocks = static_cast<int64_t>(a.out->hash_ids.size());
    produced.insert(a.out->hash_ids.begin(), a.out->hash_ids.end());
  }
}

double subagent_end_s(const Sub& s) {
  if (s.duration_ms >= 0) return s.t + s.duration_ms / 1000.0;
  double end = s.t;
  bool any = false;
  for (const auto& r : s.reqs) {
    if (r.api_time < 0) continue;
    end = any ? std::max(end, r.t + r.api_time) : r.t + r.api_time;
    any = true;
  }
  return any ? end : s.t;
}

struct SubChain {
  FileConversation conv;
  std::vector<size_t> calls;  // the sub-agent's calls on this chain, in time order
  double first_t_s = 0;
};

// A sub-agent's calls split into agent chains (weka_chains.h): the main chain keeps the name
// "<id>::sa:<agent>", the others are "<id>::sa:<agent>:fa:NNN" (NNN counts workers per trace).
std::vector<SubChain> split_subagent(const Trace& tr, const Sub& s, uint64_t scope,
                                     const std::map<std::string, int32_t>& ranks, int32_t* workers) {
  std::vector<ChainCall> calls;
  for (const Req& r : s.reqs) calls.push_back({r.t, r.t + std::max(0.0, r.api_time), &r.hash_ids});
  const std::vector<int32_t> chain_of = detect_agent_chains(calls);
  std::vector<size_t> order(s.reqs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.reqs[a].t < s.reqs[b].t; });
  const int32_t n = chain_of.empty() ? 1 : *std::max_element(chain_of.begin(), chain_of.end()) + 1;
  std::vector<SubChain> out(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) {
    FileConversation& c = out[static_cast<size_t>(k)].conv;
    c.session_id = k == 0 ? fmt::format("{}::sa:{}", tr.id, s.agent_id)
                          : fmt::format("{}::sa:{}:fa:{:03d}", tr.id, s.agent_id, (*workers)++);
    c.carry_history = false;
    c.lcp_messages = true;
    c.prefix_tokens = s.prefix_tokens;
    out[static_cast<size_t>(k)].first_t_s = s.t;
  }
  for (size_t i : order) {
    SubChain& ch = out[static_cast<size_t>(chain_of[i])];
    FileTurn t = make_turn(s.reqs[i], tr.block_size, scope, ranks);
    if (ch.calls.empty()) ch.first_t_s = s.reqs[i].t;
    if (!ch.calls.empty()) t.delay_ms = start_to_start_ms(s.reqs[ch.calls.back()], s.reqs[i]);
    ch.conv.turns.push_back(std::move(t));
    ch.calls.push_back(i);
  }
  return out;
}

DatasetFile build(const Trace& tr) {
  DatasetFile file;
  file.format = FileFormat::kWekaTrace;
  file.default_block_size = tr.block_size;
  file.lines = 1;
  const uint64_t scope = core::fnv1a64(tr.id);
  const auto ranks = model_ranks(tr);
  FileConversation root;
  root.session_id = tr.id;
  root.carry_history = false;
  root.lcp_messages = true;
  root.prefix_tokens = tr.prefix_tokens;
  for (size_t i = 0; i < tr.parent.size(); ++i) {
    FileTurn t = make_turn(tr.parent[i], tr.block_size, scope, ranks);
    t.timestamp_ms = tr.parent[i].t * 1000.0;
    if (i > 0) t.delay_ms = start_to_start_ms(tr.parent[i - 1], tr.parent[i]);
    root.turns.push_back(std::move(t));
  }
  std::vector<FileConversation> children;
  std::vector<std::vector<std::pair<size_t, size_t>>> at(tr.subs.size());  // call -> (child, turn)
  int32_t workers = 0;
  for (size_t si = 0; si < tr.subs.size(); ++si) {
    const Sub& s = tr.subs[si];
    std::vector<SubChain> chains = split_subagent(tr, s, scope, ranks, &workers);
    at[si].resize(s.reqs.size());
    for (size_t c = 0; c < chains.size(); ++c)
      for (size_t k = 0; k < chains[c].calls.size(); ++k) at[si][chains[c].calls[k]] = {children.size() + c, k};
    // The join: the first later parent request that starts after the subagent ended.
    const double end = subagent_end_s(s);
    int32_t join = -1;
    for (size_t j = static_cast<size_t>(s.anchor) + 1; j < tr.parent.size(); ++j) {
      if (tr.parent[j].t >= end - kJoinSlackS) {
        join = static_cast<int32_t>(j);
        break;
      }
    }
    const auto anchor = static_cast<int32_t>(s.anchor);
    auto same = std::find_if(root.branches.begin(), root.branches.end(), [&](const FileBranch& b) {
      return b.after_turn == anchor && b.join_turn == join;
    });
    FileBranch& b = same != root.branches.end() ? *same : root.branches.emplace_back();
    b.after_turn = anchor;
    b.join_turn = join;
    for (SubChain& chain : chains) {
      b.children.push_back(chain.conv.session_id);
      b.child_delay_ms.push_back(std::max(0.0, (chain.first_t_s - s.t) * 1000.0));
      children.push_back(std::move(chain.conv));
    }
  }
  std::vector<FileTurn*> parent_turns;
  for (auto& t : root.turns) parent_turns.push_back(&t);
  std::vector<std::vector<FileTurn*>> sub_turns(tr.subs.size());
  for (size_t si = 0; si < tr.subs.size(); ++si)
    for (size_t i = 0; i < tr.subs[si].reqs.size(); ++i)
      sub_turns[si].push_back(&children[at[si][i].first].turns[at[si][i].second]);
  stamp_prefix_hits(tr, parent_turns, sub_turns);
  file.has_timestamps = true;
  file.conversations.push_back(std::move(root));
  for (auto& c : children)
    if (!c.turns.empty()) file.conversations.push_back(std::move(c));
  return file;
}

}  // namespace

Result<DatasetFile> parse_weka_trace(std::string_view text, const std::string& name) {
  const Where w{name, 0};
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(text.data(), text.size(), true).get(doc) != simdjson::SUCCESS)
    return w.fail("(file)", "not valid JSON (a weka_trace file is one JSON object)");
  object top;
  if (doc.get(top) != simdjson::SUCCESS) return w.fail("(file)", "expected one JSON object");
  SB_TRY_ASSIGN(const Trace tr, read_trace(top, w));
  return build(tr);
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
