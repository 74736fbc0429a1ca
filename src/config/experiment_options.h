// Options of an experiment: several runs of one benchmark (a sweep over flag values, repeated
// trials with confidence intervals). AIPerf's "Multi-Run" flag group (flags_experiment.cc); the
// experiment library (src/experiment/) reads them. A single run ignores them.
//
// Thread safety: plain value type.
#pragma once

#include <cstdint>
#include <string>

namespace servebench::config {

enum class SweepType { kGrid, kZip, kScenarios };
enum class SweepOrder { kRepeated, kIndependent };  // --parameter-sweep-mode
enum class ConvergenceMode { kCiWidth, kCv, kDistribution };

struct ExperimentOptions {
  int64_t num_profile_runs = 1;                 // --num-profile-runs (1..10)
  int64_t profile_run_cooldown_ns = 0;          // --profile-run-cooldown-seconds
  double confidence_level = 0.95;               // --confidence-level (0 < x < 1)
  bool disable_warmup_after_first = true;       // --profile-run-disable-warmup-after-first
  bool set_consistent_seed = true;              // --set-consistent-seed (seed 42 when unset)
  bool vary_seed_per_trial = false;             // --vary-seed-per-trial (seed + trial - 1)
  std::string convergence_metric;               // --convergence-metric ("" = run every trial)
  std::string convergence_stat = "avg";         // --convergence-stat
  double convergence_threshold = 0.05;          // --convergence-threshold
  ConvergenceMode convergence_mode = ConvergenceMode::kCiWidth;  // --convergence-mode
  int64_t sweep_cooldown_ns = 0;                // --parameter-sweep-cooldown-seconds
  bool sweep_same_seed = false;                 // --parameter-sweep-same-seed
  SweepOrder sweep_order = SweepOrder::kRepeated;  // --parameter-sweep-mode
  SweepType sweep_type = SweepType::kGrid;      // --sweep-type
  bool sweep_type_given = false;
  bool no_sweep_table = false;                  // --no-sweep-table
  std::string sweep_scenarios_json;             // --sweep-scenarios (JSON array of objects)
  // Set by the experiment runner on each run's config: the run writes into artifact_dir itself
  // (AIPerf's profile_runs/run_0001 layout) instead of a per-run subfolder. No flag.
  bool artifact_dir_is_final = false;
};

}  // namespace servebench::config
