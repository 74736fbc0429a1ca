// A sharded run inside Open MPI's `mpirun` (docs/scale-out.md): when the placement came from
// mpirun's environment and neither --rendezvous nor --start-at was given, the ranks
//   1. meet at MPI_Barrier right before the load (t0); each rank then reads its wall clock and
//      rank 0's reading is broadcast, so every manifest records its clock offset to rank 0
//      (error bounded by the barrier's exit skew);
//   2. after every shard has written its folder, gather the folders on rank 0: a rank whose
//      folder rank 0 already sees (same path with the same shard.json: one host or a shared
//      volume) sends nothing, the others stream their files over MPI into rank 0's artifact
//      folder; rank 0 then merges every shard (merge.h) into the folder one process would have
//      written (the shard folder's name without "-shardIofN").
// A rank that fails before the gather exits without MPI_Finalize, so mpirun ends the job rather
// than letting rank 0 wait forever.
//
// Thread safety: call from the run's main thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "core/clock.h"
#include "core/result.h"
#include "shard/merge.h"
#include "shard/mpi_world.h"

namespace servebench::shard {

class MpiShardRun {
 public:
  // The MPI side when this run is a shard started by Open MPI's mpirun without --rendezvous or
  // --start-at; nullptr otherwise. When libmpi cannot be loaded, nullptr and a warning saying the
  // shards start unsynchronised. An error when MPI's rank/size differ from the placement.
  static Result<std::unique_ptr<MpiShardRun>> maybe_open(const config::BenchmarkConfig& cfg,
                                                          std::vector<std::string>* warnings,
                                                          const std::string& library = "libmpi.so.40");

  // The barrier before t0; returns this rank's clock offset to rank 0 (0 on rank 0).
  Result<int64_t> meet(const core::Clock& clock);

  // Gathers the shard folders on rank 0 and merges them; rank 0 returns the merge's outcome
  // (merged_dir filled), the other ranks nullopt. Ends MPI (MPI_Finalize) when it succeeds.
  Result<std::optional<MergeOutcome>> gather_and_merge(const std::string& shard_dir,
                                                       const MergeOptions& merge_template);

  MpiWorld& world() { return *world_; }

 private:
  explicit MpiShardRun(std::unique_ptr<MpiWorld> w) : world_(std::move(w)) {}
  Status send_folder(const std::string& shard_dir);
  Result<std::string> receive_folder(int rank, const std::string& parent);

  std::unique_ptr<MpiWorld> world_;
};

// "<parent>/<name>-shardIofN" -> "<parent>/<name>": where rank 0 writes the merged run.
std::string merged_dir_for(const std::string& shard_dir);

}  // namespace servebench::shard
