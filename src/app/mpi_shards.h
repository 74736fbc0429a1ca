// The MPI side of a sharded `servebench profile` in the run library (shard/mpi_run.h): the barrier
// before t0 and, after every shard wrote its folder, the gather and merge on rank 0 (the merged
// console table, shard health table and report.html as `servebench merge` prints and writes them).
//
// Thread safety: the run's main thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "shard/mpi_run.h"

namespace servebench::app {

// Rank 0: merges into shard::merged_dir_for(shard_dir) and returns 1 when a --fail-on gate fails
// on the merged summary, else 0; other ranks return 0. A failure is a warning (the shard's own
// folder is complete either way).
int gather_mpi_shards(shard::MpiShardRun& mpi, const config::BenchmarkConfig& cfg,
                      const std::string& shard_dir, bool print_console,
                      std::vector<std::string>* warnings);

}  // namespace servebench::app
