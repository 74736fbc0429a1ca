// weka_trace: WEKA KV-Cache-Tester / SemiAnalysis AgentX agent sessions, one JSON object per
// file (a folder holds one trace per *.json file, read in name order).
//
// A trace {id, models, block_size, hash_id_scope:"local", tool_tokens, system_tokens,
// requests, totals} becomes one root conversation (session id = `id`) of its "n"/"s" requests
// in order, each a length-only turn: input_length = `in` (synthesized exactly from `hash_ids`
// blocks of `block_size` tokens, so requests sharing leading ids share a prompt prefix),
// output_length = `out`, timestamp = t·1000 ms (every turn: a turn goes at its recorded time,
// never before the previous one completed), delay = start-to-start gap (or `think_time` with
// think_time_only). Every turn is complete on its own (carry_history false): the recorded `in`
// already holds the conversation so far; it is sent as the messages of dataset/lcp_messages.h
// (lcp_messages, prefix_tokens = tool_tokens + system_tokens of the trace or sub-agent).
//
// "subagent" entries become child conversations "<id>::sa:<agent_id>" (their inner requests,
// in order), SPAWN children of the last parent request before the marker (dropped when there
// is none), joined at the first later parent request whose t >= the subagent's end (t +
// duration_ms/1000, else the last inner t + api_time, else t; 1e-6 s slack); background when no
// parent request is that late. Markers with the same anchor and join share one branch. A child
// starts (child t0 − marker t) after its anchor completed; later inner calls go start-to-start.
// Inner `t` earlier than the marker's is taken as relative to it.
//
// Agent chains (weka_chains.h, names from weka_workers.h): a sub-agent's calls are split into
// chains; the main one is "<id>::sa:<agent_id>", the others "<id>::sa:<agent_id>:<name>" in the
// same branch. The flat top-level requests are split the same way: the main chain stays the
// root (its turns at their recorded times), each other chain becomes a child "<id>::<name>",
// spawned after the last root turn before its first request (turn 0 when none) and joined at
// the first later root turn that starts after the chain's last call ended (background when
// none); chains with the same anchor and join share one branch, each child starting its first
// call's recorded offset after the branch's earliest. split_agents false: neither split.
//
// Models: the first parent request's model has rank 0, every other model rank 1, 2, ... in
// first-appearance order (parent, then subagent calls); the engine maps rank r to
// --model[r % count]. Hash ids are local to their trace: they are namespaced by the trace id.
// Each turn is stamped with its theoretical prefix-cache hit (leading blocks produced by an
// earlier request of the trace, walking every request in t order).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {

struct WekaOptions {
  bool think_time_only = false;      // delays from think_time (start-to-start when null)
  int64_t max_context_length = 0;    // > 0: drop traces whose peak in + out exceeds it
};

// The trace options, applied to parsed traces (roots and their children):
// think_time_only: turns after the first go `think_time` after the previous one completed
//   (start-to-start when null) instead of at their recorded time;
// max_context_length: whole traces whose peak in + out exceeds it are dropped (an error when
//   none is left). A no-op for other formats.
Status apply_weka_options(DatasetFile* file, const WekaOptions& options);

// Whether agent chains are split (weka_chains.h): SERVEBENCH_WEKA_SPLIT_AGENTS, else AIPerf's
// AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS (true/false, 1/0, yes/no, on/off; default true).
// Any other value is an error naming the variable.
Result<bool> weka_split_agents_from_env();

namespace parsers {
// One trace file's text. Errors name the file and the field. split_agents: the flat top-level
// requests and each sub-agent's calls are split into agent chains (see the file comment); the
// two-argument form takes it from weka_split_agents_from_env().
Result<DatasetFile> parse_weka_trace(std::string_view text, const std::string& name, bool split_agents);
Result<DatasetFile> parse_weka_trace(std::string_view text, const std::string& name);
// Appends `more` (another trace file) to `all`; a duplicate trace id is an error.
Status merge_weka_trace(DatasetFile* all, DatasetFile more, const std::string& name);
}  // namespace parsers

}  // namespace servebench::dataset
