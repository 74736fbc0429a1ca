// servebench launch k8s|slurm: prints a Kubernetes Indexed Job (with its headless Service) or a
// Slurm batch script that runs N shards of one profile and merges them (shard/launch.h).
//
//   servebench launch k8s --shards N [--image I] [--name N] [--claim PVC] -- PROFILE FLAGS...
//   servebench launch slurm --shards N [--nodes M] [--partition P] [--time T] -- PROFILE FLAGS...
#include <CLI/CLI.hpp>

#include <cstdio>
#include <random>
#include <string>

#include "cli/cli_parse.h"
#include "cli/commands.h"
#include "shard/launch.h"

namespace servebench::cli {

int run_launch(int argc, char** argv) {
  CLI::App app{"servebench launch: a Kubernetes Indexed Job or a Slurm batch script for shards",
               "servebench launch"};
  shard::LaunchOptions o;
  std::string target;
  app.add_option("target", target, "k8s or slurm")->required()->check(CLI::IsMember({"k8s", "slurm"}));
  app.add_option("--shards", o.shards, "Number of shards (pods or tasks)")->required();
  app.add_option("--name", o.name, "Job name (a DNS label)");
  app.add_option("--image", o.image, "k8s: container image (see Containerfile)");
  app.add_option("--claim", o.results_claim, "k8s: PersistentVolumeClaim for the shard folders (ReadWriteMany)");
  app.add_option("--results-dir", o.results_dir, "Shared folder for the shard folders and the merge");
  app.add_option("--port", o.port, "Rendezvous port on shard 0");
  app.add_option("--nodes", o.nodes, "slurm: nodes (default: one per shard)");
  app.add_option("--partition", o.partition, "slurm: partition");
  app.add_option("--time", o.time_limit, "slurm: time limit");
  app.add_option("profile_args", o.profile_args, "servebench profile flags (after --)");
  if (auto stop = parse_command_line(app, "launch", argc, argv)) return *stop;
  o.seed = (static_cast<uint64_t>(std::random_device{}()) << 16) ^ std::random_device{}();
  if (auto st = shard::check_launch_options(o); !st) {
    std::fprintf(stderr, "servebench launch: %s\n", st.error().message.c_str());
    return 2;
  }
  std::fputs((target == "k8s" ? shard::kubernetes_manifest(o) : shard::slurm_script(o)).c_str(), stdout);
  return 0;
}

}  // namespace servebench::cli
