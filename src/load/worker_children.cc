// The worker's child-conversation logic (children.h): starting a branch's children on the
// parent's worker, parking a parent's join turn, and releasing it when the last child ends.
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "load/children.h"
#include "load/worker.h"
#include "load/worker_internal.h"

namespace servebench::load {

void Worker::start_branches(LiveSession* parent, int32_t after_turn, int64_t now_ns) {
  for (const SessionBranch& b : parent->conv->branches) {
    if (b.after_turn != after_turn) continue;
    for (size_t k = 0; k < b.children.size(); ++k) start_child(parent, b, k, now_ns);
  }
}

void Worker::start_child(LiveSession* parent, const SessionBranch& b, size_t k, int64_t now_ns) {
  auto s = std::make_unique<LiveSession>();
  s->number = parent->number;
  s->conv = &sessions_->conversations[b.children[k]];
  s->max_turns = static_cast<int32_t>(s->conv->turns.size());
  s->parent = parent;
  s->gates_turn = b.join_turn;
  s->correlation_id = fmt::format("{}-c{}", parent->correlation_id, parent->children_started++);
  s->marker = parent->marker;
  // Its own connection: children are in flight together with each other.
  s->connection_group = (1ULL << 62) + ++child_groups_;
  if (b.fork) s->history = parent->history;
  LiveSession* raw = s.get();
  raw->pool_pos = session_pool_.size();
  session_pool_.push_back(std::move(s));
  parent->children.push_back(raw);
  ++live_children_;
  if (raw->max_turns <= 0) {
    end_session(raw, now_ns);
    return;
  }
  if (!raw->conv->branches.empty()) start_branches(raw, -1, now_ns);
  const int64_t delay = k < b.child_delay_ns.size() ? std::max<int64_t>(0, b.child_delay_ns[k]) : 0;
  ready_.push_back({now_ns + delay, raw});
  std::push_heap(ready_.begin(), ready_.end(), std::greater<ReadyTurn>());
}

void Worker::queue_next_turn(LiveSession* s, int64_t ready_ns) {
  for (const LiveSession* c : s->children) {
    if (c->gates_turn == s->next_turn) {
      s->waiting_join = true;
      s->join_ready_ns = ready_ns;
      return;
    }
  }
  ready_.push_back({ready_ns, s});
  std::push_heap(ready_.begin(), ready_.end(), std::greater<ReadyTurn>());
}

void Worker::detach_child(LiveSession* child, int64_t now_ns) {
  LiveSession* parent = child->parent;
  child->parent = nullptr;
  auto& kids = parent->children;
  kids.erase(std::find(kids.begin(), kids.end(), child));
  if (!parent->waiting_join) return;
  for (const LiveSession* c : kids)
    if (c->gates_turn == parent->next_turn) return;  // still waiting on a sibling
  parent->waiting_join = false;
  if (stopping_) {
    end_session(parent, now_ns);
    return;
  }
  queue_next_turn(parent, std::max(parent->join_ready_ns, now_ns));
}

}  // namespace servebench::load
