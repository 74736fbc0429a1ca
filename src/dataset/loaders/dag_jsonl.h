// dag_jsonl: agent DAG conversations, one JSON object per line (AIPerf's format).
//
// {"session_id", "turns": [...], "pre_session_spawns": [ids]}; a turn {"messages": [{role,
// content}, ...], "model", "max_tokens", "tools", "extra", "forks", "spawns", "delay" (ms)}.
// Unknown keys are rejected; blank lines and a UTF-8 BOM are skipped.
//
// A turn's messages are sent in order after the conversation so far (every earlier turn's
// messages and the live replies): the last one is the turn's own message, the others its
// lead_messages. String contents are sent as they are; other contents as their JSON text.
// `tools` and `extra` go into the body (FileTurn::extra_json), `max_tokens` is the output
// length, `model` is ranked by first appearance (the engine maps rank r to --model[r % n]).
//
// Branches (FileBranch, played by load/children.h):
//   forks: ["c"]                      FORK after this turn, the parent ends (last turn only);
//   forks: [{"child":"c","background":true}]   FORK, the parent goes on, nobody joins;
//   spawns: ["c", ...]                SPAWN, joined by the next turn (none on the last turn);
//   spawns: [{"children":[...],"join_at":K}]   SPAWN, turn K (spawn turn < K < turns) waits;
//   pre_session_spawns: [...]         SPAWN before turn 0, never joined.
// A FORK child starts with the parent's history, a SPAWN child with none. Checked here: unique
// session ids, a child forked by one parent only, no duplicate child in one turn, `system`
// messages only on turn 0; targets and cycles are checked when the engine links them.
//
// Thread safety: pure function.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset::parsers {

Result<DatasetFile> parse_dag_jsonl(std::string_view text, const std::string& name);

}  // namespace servebench::dataset::parsers
