// Placement: which shard of how many this process is, from --shard or from the launcher that
// started it (docs/scale-out.md):
//   MPI (mpirun/srun with Open MPI or MPICH): OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/PMI_SIZE;
//   Kubernetes Indexed Job: JOB_COMPLETION_INDEX, the count from SERVEBENCH_SHARD_COUNT (the
//     generated manifest sets it to the Job's completions);
//   Slurm: SLURM_PROCID/SLURM_NTASKS.
// `--launcher auto` takes the first launcher whose variables are present; --shard I/N always
// wins over the environment. No launcher and no --shard: one process (0 of 1, not split).
//
// Thread safety: pure; the environment is read through the function passed in.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/result.h"

namespace servebench::shard {

enum class Launcher { kNone, kMpi, kKubernetes, kSlurm };

std::string_view launcher_name(Launcher l);  // "none", "mpi", "k8s", "slurm"

struct Placement {
  Launcher launcher = Launcher::kNone;
  int32_t index = 0;
  int32_t count = 1;
  bool sharded = false;  // --shard given or a launcher found: the run is one shard of a plan
};

// Reads one environment variable (nullptr when unset); getenv in production.
using EnvLookup = std::function<const char*(const char*)>;
EnvLookup process_env();

// `launcher`: the --launcher text (auto, none, mpi, k8s, slurm). `flag_count` 0 = --shard not
// given. Fails (kUsage, one line naming the variable) when a named launcher's variables are
// missing or malformed.
Result<Placement> resolve_placement(const std::string& launcher, int32_t flag_index,
                                    int32_t flag_count, const EnvLookup& env);

}  // namespace servebench::shard
