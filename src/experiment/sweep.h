// Sweep expansion: the comma lists of sweepable flags (config::SweepAxis) or the named
// scenarios of --sweep-scenarios become cells, each a set of flag values applied on top of the
// base configuration through the flag table, so a cell's config is exactly what the same flags
// typed one at a time would give. grid = every combination (first axis outermost), zip = the
// i-th value of every list together, scenarios = one cell per JSON object.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "config/cli_options.h"
#include "core/result.h"

namespace servebench::experiment {

struct Assignment {
  size_t flag_index = 0;  // into config::profile_flags()
  std::string name;       // axis or scenario key ("concurrency")
  std::string value;      // as typed ("4"); "true"/"false" for switches
  std::vector<std::string> list;  // list flags given a JSON array in a scenario
};

struct Cell {
  int64_t index = 0;
  std::string label;  // "concurrency_4", "concurrency_4_isl_128", a scenario's name
  std::vector<Assignment> values;
};

// The cells of a sweep; one cell without values when there is no sweep. Errors (exit 2): zip
// lists of unequal length, scenarios mixed with lists, unknown scenario flags.
Result<std::vector<Cell>> expand_sweep(const std::vector<config::SweepAxis>& axes,
                                       const config::ExperimentOptions& options);

// base + the cell's values, validated (errors name the cell and the flag).
Result<config::BenchmarkConfig> cell_config(const config::BenchmarkConfig& base, const Cell& cell);

// "variation_0003_concurrency_8" (AIPerf's sweep folder names).
std::string variation_dir(const Cell& cell);

// Seed of trial `trial` (1-based) of `cell`: --random-seed (or 42 with --set-consistent-seed),
// plus the cell index unless --parameter-sweep-same-seed, plus trial - 1 with
// --vary-seed-per-trial. nullopt when no seed is set and consistent seeding is off.
std::optional<uint64_t> trial_seed(const config::BenchmarkConfig& base, const Cell& cell,
                                   int64_t trial, bool is_sweep);

}  // namespace servebench::experiment
