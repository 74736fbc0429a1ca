#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "core/rng.h"
#include "dataset/loaders/weka_chains.h"
#include "dataset/loaders/weka_trace_model.h"
#include "dataset/loaders/weka_workers.h"

namespace servebench::dataset::weka {
namespace {

constexpr double kJoinSlackS = 1e-6;

using Ranks = std::map<std::string, int32_t>;

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

double end_s(const Req& r) { return r.t + std::max(0.0, r.api_time); }

Ranks model_ranks(const Trace& tr) {
  Ranks ranks;
  auto add = [&](const std::string& m) { ranks.emplace(m, static_cast<int32_t>(ranks.size())); };
  for (const auto& r : tr.parent) add(r.model);
  for (const auto& s : tr.subs)
    for (const auto& r : s.reqs) add(r.model);
  return ranks;
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

// One agent chain of a request list: its requests in time order and its name suffix.
struct Chain {
  std::string suffix;  // "" for the main chain
  std::vector<size_t> calls;
};

// `reqs` split into agent chains (weka_chains.h, named by weka_workers.h); one chain of every
// request in time order when `split` is false. same_model: only one model continues a chain.
std::vector<Chain> split_requests(const std::vector<Req>& reqs, const Ranks& ranks, bool split, bool same_model,
                                  WorkerCounters* counters) {
  std::vector<ChainCall> calls;
  for (const Req& r : reqs) calls.push_back({r.t, end_s(r), &r.hash_ids, ranks.at(r.model), r.in, r.out});
  AgentChains found;
  found.chain_of.assign(reqs.size(), 0);
  found.fork_from.assign(1, -1);
  if (split && !reqs.empty()) found = detect_agent_chains(calls, same_model);
  const std::vector<std::string> suffixes = worker_suffixes(calls, found, counters);
  std::vector<Chain> out(found.fork_from.size());
  for (size_t c = 0; c < out.size(); ++c) out[c].suffix = suffixes[c];
  std::vector<size_t> order(reqs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return reqs[a].t < reqs[b].t; });
  for (size_t i : order) out[static_cast<size_t>(found.chain_of[i])].calls.push_back(i);
  return out;
}

const Req* first_hashed(const std::vector<Req>& reqs, const std::vector<size_t>& calls) {
  for (size_t i : calls)
    if (!reqs[i].hash_ids.empty()) return &reqs[i];
  return nullptr;
}

// A worker chain's system message: the declared tool + system tokens only when its first call
// starts with the same blocks as the main chain's (the recording proves it), else none.
int64_t worker_prefix_tokens(const Req* main_first, const Req* first, int64_t prefix_tokens, int64_t bs) {
  if (prefix_tokens <= 0 || main_first == nullptr || first == nullptr) return 0;
  const auto blocks = static_cast<size_t>((prefix_tokens + bs - 1) / bs);
  const auto& a = main_first->hash_ids;
  const auto& b = first->hash_ids;
  if (a.size() < blocks || b.size() < blocks) return 0;
  return std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(blocks), b.begin()) ? prefix_tokens : 0;
}

class Builder {
 public:
  explicit Builder(const Trace& tr) : tr_(tr), scope_(core::fnv1a64(tr.id)), ranks_(model_ranks(tr)) {}

  DatasetFile build(bool split) {
    WorkerCounters flat_counters;
    main_ = split_requests(tr_.parent, ranks_, split && tr_.parent.size() > 1, true, &flat_counters);
    if (main_.size() == 1)  // nothing split off: the file's order, as recorded
      for (size_t i = 0; i < tr_.parent.size(); ++i) main_[0].calls[i] = i;
    parent_at_.resize(tr_.parent.size());
    root_ = conversation(tr_.id, tr_.parent, main_[0].calls, tr_.prefix_tokens, true, &parent_at_);
    add_subagents(split);
    add_flat_workers();
    stamp_prefix_hits();
    DatasetFile file;
    file.format = FileFormat::kWekaTrace;
    file.default_block_size = tr_.block_size;
    file.lines = 1;
    file.has_timestamps = true;
    file.conversations.push_back(std::move(root_));
    for (auto* group : {&sub_children_, &flat_children_})
      for (auto& c : *group)
        if (!c.turns.empty()) file.conversations.push_back(std::move(c));
    return file;
  }

 private:
  // Where a request's turn is: a child of `group` (the root when null), turn `turn`.
  struct At {
    std::vector<FileConversation>* group = nullptr;
    size_t index = 0;
    size_t turn = 0;
  };

  FileTurn make_turn(const Req& r) const {
    FileTurn t;
    t.input_length = r.in;
    t.output_length = std::max<int64_t>(1, r.out);
    t.hash_ids = request_blocks(r, tr_.block_size, scope_);
    t.model_rank = ranks_.at(r.model);
    t.think_time_ms = r.think_time >= 0 ? r.think_time * 1000.0 : -1;
    t.api_time_ms = r.api_time >= 0 ? r.api_time * 1000.0 : -1;
    t.recorded_t_ms = r.t * 1000.0;
    t.recorded_output_length = r.out;
    return t;
  }

  // A conversation of `calls` (time order); the root's turns go at their recorded time.
  FileConversation conversation(std::string id, const std::vector<Req>& reqs, const std::vector<size_t>& calls,
                                int64_t prefix_tokens, bool root, std::vector<At>* at) const {
    FileConversation c;
    c.session_id = std::move(id);
    c.carry_history = false;
    c.lcp_messages = true;
    c.prefix_tokens = prefix_tokens;
    for (size_t k = 0; k < calls.size(); ++k) {
      FileTurn t = make_turn(reqs[calls[k]]);
      if (root) t.timestamp_ms = reqs[calls[k]].t * 1000.0;
      if (k > 0) t.delay_ms = start_to_start_ms(reqs[calls[k - 1]], reqs[calls[k]]);
      c.turns.push_back(std::move(t));
      (*at)[calls[k]].turn = k;
    }
    return c;
  }

  // The last root turn of a parent request at or before `last_parent` (-1: none).
  int32_t anchor_turn(int64_t last_parent) const {
    int32_t anchor = -1;
    for (size_t k = 0; k < main_[0].calls.size(); ++k)
      if (static_cast<int64_t>(main_[0].calls[k]) <= last_parent) anchor = static_cast<int32_t>(k);
    return anchor;
  }

  // The first root turn of a parent request after `last_parent` that starts at or after `end`.
  int32_t join_turn(int64_t last_parent, double end) const {
    for (size_t k = 0; k < main_[0].calls.size(); ++k) {
      const size_t i = main_[0].calls[k];
      if (static_cast<int64_t>(i) > last_parent && tr_.parent[i].t >= end - kJoinSlackS) return static_cast<int32_t>(k);
    }
    return -1;
  }

  // Sub-agents: SPAWN children of the last root turn before the marker (dropped when none),
  // joined at the first later root turn that starts after the sub-agent ended; markers with the
  // same anchor and join share one branch.
  void add_subagents(bool split) {
    WorkerCounters counters;
    sub_at_.resize(tr_.subs.size());
    for (size_t si = 0; si < tr_.subs.size(); ++si) {
      const Sub& s = tr_.subs[si];
      const int32_t anchor = anchor_turn(s.anchor);
      if (anchor < 0) continue;  // every earlier request went to a worker chain: dropped (AIPerf)
      const int32_t join = join_turn(s.anchor, subagent_end_s(s));
      auto same = std::find_if(root_.branches.begin(), root_.branches.end(), [&](const FileBranch& b) {
        return b.after_turn == anchor && b.join_turn == join;
      });
      FileBranch& b = same != root_.branches.end() ? *same : root_.branches.emplace_back();
      b.after_turn = anchor;
      b.join_turn = join;
      sub_at_[si].resize(s.reqs.size());
      const std::vector<Chain> chains = split_requests(s.reqs, ranks_, split, false, &counters);
      const Req* main_first = first_hashed(s.reqs, chains[0].calls);
      const std::string base = fmt::format("{}::sa:{}", tr_.id, s.agent_id);
      for (const Chain& ch : chains) {
        const int64_t prefix = ch.suffix.empty() ? s.prefix_tokens
                                                 : worker_prefix_tokens(main_first, first_hashed(s.reqs, ch.calls),
                                                                        s.prefix_tokens, tr_.block_size);
        FileConversation conv = conversation(ch.suffix.empty() ? base : base + ":" + ch.suffix, s.reqs, ch.calls,
                                             prefix, false, &sub_at_[si]);
        for (size_t i : ch.calls) sub_at_[si][i] = {&sub_children_, sub_children_.size(), sub_at_[si][i].turn};
        const double first_t = ch.calls.empty() ? s.t : s.reqs[ch.calls.front()].t;
        b.children.push_back(conv.session_id);
        b.child_delay_ms.push_back(std::max(0.0, (first_t - s.t) * 1000.0));
        sub_children_.push_back(std::move(conv));
      }
    }
  }

  // Worker chains split off the flat top-level requests: SPAWN children of the last root turn
  // before their first request (turn 0 when none), joined at the first later root turn that
  // starts after the chain's last call ended; chains with the same anchor and join share one
  // branch (AIPerf's "<id>:flatspawn:N"), each child starting its first call's recorded offset
  // after the branch's earliest one.
  void add_flat_workers() {
    const Req* main_first = first_hashed(tr_.parent, main_[0].calls);
    std::vector<std::pair<size_t, double>> flat_branches;  // branch index, earliest first t
    for (size_t c = 1; c < main_.size(); ++c) {
      const Chain& ch = main_[c];
      const auto first = static_cast<int64_t>(ch.calls.front());
      double end = 0;
      for (size_t i : ch.calls) end = std::max(end, end_s(tr_.parent[i]));
      const int32_t anchor = std::max(0, anchor_turn(first - 1));
      const int32_t join = join_turn(first, end);
      auto same = std::find_if(flat_branches.begin(), flat_branches.end(), [&](const auto& fb) {
        return root_.branches[fb.first].after_turn == anchor && root_.branches[fb.first].join_turn == join;
      });
      if (same == flat_branches.end()) {
        root_.branches.push_back(FileBranch{anchor, join, false, {}, {}});
        same = flat_branches.insert(flat_branches.end(), {root_.branches.size() - 1, tr_.parent[ch.calls.front()].t});
      }
      FileConversation conv =
          conversation(tr_.id + "::" + ch.suffix, tr_.parent, ch.calls,
                       worker_prefix_tokens(main_first, first_hashed(tr_.parent, ch.calls), tr_.prefix_tokens,
                                            tr_.block_size),
                       false, &parent_at_);
      for (size_t i : ch.calls) parent_at_[i] = {&flat_children_, flat_children_.size(), parent_at_[i].turn};
      FileBranch& b = root_.branches[same->first];
      b.children.push_back(conv.session_id);
      b.child_delay_ms.push_back(std::max(0.0, (tr_.parent[ch.calls.front()].t - same->second) * 1000.0));
      flat_children_.push_back(std::move(conv));
    }
  }

  FileTurn* turn_of(const At& a) {
    FileConversation& c = a.group == nullptr ? root_ : (*a.group)[a.index];
    return &c.turns[a.turn];
  }

  // Theoretical prefix-cache hits: every request in t order (parent before subagent calls at
  // the same t), one set of produced blocks; a hit is a leading block already produced.
  void stamp_prefix_hits() {
    struct Item {
      double t;
      int outer;
      size_t chain;
      size_t turn;
      FileTurn* out;
    };
    std::vector<Item> all;
    for (size_t i = 0; i < tr_.parent.size(); ++i) all.push_back({tr_.parent[i].t, 0, 0, i, turn_of(parent_at_[i])});
    for (size_t s = 0; s < tr_.subs.size(); ++s)
      for (size_t i = 0; i < sub_at_[s].size(); ++i)
        all.push_back({tr_.subs[s].reqs[i].t, 1, s, i, turn_of(sub_at_[s][i])});
    std::stable_sort(all.begin(), all.end(), [](const Item& a, const Item& b) {
      if (a.t != b.t) return a.t < b.t;
      if (a.outer != b.outer) return a.outer < b.outer;
      return a.chain != b.chain ? a.chain < b.chain : a.turn < b.turn;
    });
    std::unordered_set<int64_t> produced;
    for (const Item& a : all) {
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

  const Trace& tr_;
  const uint64_t scope_;
  const Ranks ranks_;
  std::vector<Chain> main_;  // the flat top-level requests' chains (0: the root)
  FileConversation root_;
  std::vector<FileConversation> sub_children_, flat_children_;
  std::vector<At> parent_at_;               // per parent request
  std::vector<std::vector<At>> sub_at_;     // per sub-agent, per call
};

}  // namespace

DatasetFile build_trace(const Trace& tr, bool split_agents) { return Builder(tr).build(split_agents); }

}  // namespace servebench::dataset::weka
