// The experiment runner: a loop of app::run_benchmark calls, one per (cell, trial), each run in
// its own artifact folder (AIPerf's layout), with cooldowns, seeding, per-cell confidence
// aggregates and a sweep summary rewritten after every run, so Ctrl-C (which stops the loop
// after the running benchmark wrote its artifacts) leaves the files of everything that ran.
//
//   <artifact-dir>/<model>-<endpoint>-<label or "sweep">/
//     [variation_0000_concurrency_4/]          one folder per sweep cell (sweeps only)
//       [profile_runs/run_0001/ ...]           one folder per trial (--num-profile-runs > 1)
//       [aggregate/profile_export_aiperf_aggregate.{json,csv}]
//     profile_export_aiperf_sweep.{json,csv}   one row per cell (sweeps only)
//
// A failed run (exit 3, or an error) is recorded and the loop goes on.
//
// Thread safety: one experiment at a time per process (run_benchmark's rule).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/run.h"
#include "config/cli_options.h"
#include "experiment/aggregate.h"
#include "experiment/sweep.h"

namespace servebench::experiment {

// True when parsed flags ask for more than one run (a list, scenarios or trials > 1).
bool is_experiment(const config::ParsedArgs& parsed);

struct CellPlan {
  Cell cell;
  config::BenchmarkConfig config;  // validated; artifact_dir not yet set per trial
};

struct ExperimentPlan {
  config::BenchmarkConfig base;
  std::vector<CellPlan> cells;
  bool is_sweep = false;
  int64_t trials = 1;
  std::string root;  // the experiment's folder
  std::vector<std::string> argv;  // config::ParsedArgs::argv: the source of each trial's command
};

// Expands and validates every cell before anything is sent (errors: exit 2).
Result<ExperimentPlan> plan_experiment(const config::ParsedArgs& parsed);

// The configuration of trial `trial` (1-based) of `cp`, written into `dir`: its seed, warm-up
// before a cell's first trial only (by default), and cli_command set to the equivalent
// single-run command (experiment/cell_command.h; kept as typed when plan.argv is empty).
config::BenchmarkConfig trial_config(const ExperimentPlan& plan, const CellPlan& cp,
                                     const std::string& dir, int64_t trial);

struct CellResult {
  Cell cell;
  std::string dir;
  std::vector<Trial> trials;
  bool converged = false;  // stopped early by --convergence-*
};

struct ExperimentResult {
  int exit_code = 0;        // 0 all ok; 1 a gate failed; 3 a run failed; 128+signal interrupted
  bool interrupted = false;
  std::vector<CellResult> cells;
  std::string root;
};

struct ExperimentCallbacks {
  // Hooks for one run (live display, signal-watcher stage); may be empty.
  std::function<app::RunHooks(const config::BenchmarkConfig&)> hooks_for;
  // A line of progress or the sweep table (stderr in the CLI).
  std::function<void(const std::string&)> print;
  // Runs one benchmark; defaults to app::run_benchmark (tests substitute a fake).
  std::function<app::RunResult(const config::BenchmarkConfig&, const app::RunHooks&)> run;
};

ExperimentResult run_experiment(const ExperimentPlan& plan, const ExperimentCallbacks& callbacks);

// Sleeps `ns`, waking early on an interrupt (core/interrupt.h). False when interrupted.
bool cooldown(int64_t ns);

}  // namespace servebench::experiment
