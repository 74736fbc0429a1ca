// Launcher manifests for `servebench launch k8s|slurm`: ready-to-submit text that runs N shards
// of one plan and merges them (docs/scale-out.md).
//   k8s: a JSON List (kubectl apply -f accepts it) of a headless Service (the rendezvous address
//     of pod 0: <name>-0.<name>:<port>) and an Indexed Job of N completions and N in parallel;
//     every pod writes its shard folder to the shared volume, pod 0 then waits for all of them
//     and runs servebench merge.
//   slurm: an sbatch script: one task per shard (srun), the rendezvous on the first node, then
//     servebench merge in the batch step.
// The profile flags are passed through (shell-quoted); --random-seed is added when missing, so
// every shard builds the same plan.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::shard {

struct LaunchOptions {
  int32_t shards = 0;
  std::string name = "servebench";
  std::string image = "servebench:latest";      // k8s: built from the Containerfile
  std::string results_dir = "/results";         // the shared volume / filesystem
  std::string results_claim = "servebench-results";  // k8s: PersistentVolumeClaim (ReadWriteMany)
  int port = 29500;                             // rendezvous port
  int32_t nodes = 0;                            // slurm: 0 = as many as shards
  std::string partition;                        // slurm
  std::string time_limit = "01:00:00";          // slurm
  uint64_t seed = 0;                            // used when the flags have no --random-seed
  std::vector<std::string> profile_args;
};

Status check_launch_options(const LaunchOptions& o);
std::string kubernetes_manifest(const LaunchOptions& o);
std::string slurm_script(const LaunchOptions& o);
// 'text' with single quotes for the shell.
std::string shell_quote(const std::string& text);

}  // namespace servebench::shard
