// Merge: the artifacts of one run from the folders of its shards (`servebench merge`). The
// shards' profile_export.jsonl files (and raw files, when every shard has one) are concatenated
// in shard order into the output folder, the run's metadata comes from shard 0's
// profile_export_aiperf.json (start = the earliest shard start, end = the latest end, warnings
// and the interrupted flag from all), and the summary files are recomputed from the union of
// the records by the `servebench report` path (export/report.h): the merged summary is exactly
// what one process would compute over those records. inputs.json is shard 0's (every shard
// built the whole workload). shards.json lists every shard's manifest plus the spread of start
// instants and the clock offsets.
//
// Refusals (one line, kInvalidArgument): a folder without shard.json, shards of different plans
// (seed, flags or binary version differ: the line names which and the two folders), a shard
// count that differs, a shard index given twice or missing.
//
// Memory: one record at a time while concatenating; the summary keeps one double per metric per
// request (docs/performance.md), as in a live run.
//
// Thread safety: call from one thread.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "export/artifacts.h"
#include "shard/manifest.h"

namespace servebench::shard {

struct MergeOptions {
  std::vector<std::string> shard_dirs;
  std::string output_dir;
  std::string profile_export_prefix;  // the shards' --profile-export-prefix ("" = default names)
  bool print_console = true;
};

struct MergeOutcome {
  exporter::ExportOutcome exported;
  std::vector<ShardManifest> shards;  // in shard order
  int64_t start_spread_ns = 0;        // latest − earliest profiling start (t0) over shards
  int64_t records = 0;                // lines merged (warm-up and profiling)
};

// Reads and checks the manifests (the refusals above); in shard order.
Result<std::vector<ShardManifest>> check_shards(const std::vector<std::string>& dirs);

Result<MergeOutcome> merge_shards(const MergeOptions& options);

// The per-shard health table printed by `servebench merge` (one line per shard).
std::string health_table(const MergeOutcome& outcome);

}  // namespace servebench::shard
