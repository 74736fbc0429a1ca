// Child conversations: agent traces (weka_trace sub-agents, dag_jsonl forks and spawns) where
// one conversation starts others and may wait for them.
//
// A SessionTemplate's branches (sessions.h) name child conversations. When the parent's turn
// `after_turn` completes (or the parent starts, for after_turn = -1), the worker that plays the
// parent starts every child of the branch at once, after each child's own delay: the children
// are in flight together, on the parent's worker (its session affinity), each on its own
// connection under sticky-user-sessions (HTTP/1.1 cannot multiplex one). A FORK child starts
// with the parent's live history, a SPAWN child with none. The parent's `join_turn` is sent
// only after every child of the branch has finished all its turns (and their children theirs:
// a child's own branches are played the same way). A child's failed or cancelled request is
// recorded like any other; the child then goes on or ends as a session would, so the join
// releases once the failure is recorded (a hung server ends in --request-timeout-seconds).
// Children hold no --concurrency slot of their own: they run in the root's slot, so requests
// in flight can exceed --concurrency (AIPerf's rule); --request-count counts their requests.
// Runs without branches pay nothing per request: the worker checks one empty vector per turn.
//
// Thread safety: link_children runs before t0 on the set-up thread; the result is immutable.
#pragma once

#include "core/result.h"
#include "load/sessions.h"

namespace servebench::load {

// Resolves every branch's child_ids to conversation indices, marks those conversations as
// children and removes them from `order` (only roots start sessions), and sets has_children.
// Errors (kInvalidArgument, one line): an unknown child id, a join turn outside
// (after_turn, turn count), a conversation that is its own ancestor (a cycle), no root left.
// REQUIRES: conversation ids are unique among conversations that are referenced as children.
Status link_children(SessionWorkload* workload, const std::string& input_name);

}  // namespace servebench::load
