// The single-run command equivalent to one trial of an experiment: what a user types to rerun
// that trial alone with `servebench profile`, recorded as `cli_command` in the trial's
// profile_export_aiperf.json, the cell's aggregate file and its sweep row (AIPerf records the
// redacted command line in its exports).
//
// It is the experiment's argv with
//   - the flags that shape the loop of runs left out (FlagSpec::experiment_loop:
//     --num-profile-runs, --sweep-type, --convergence-*...),
//   - every flag the cell assigns set to the cell's value (a comma list becomes its one value;
//     a scenario's values are appended; a switch set to false takes its --no- form; a list
//     flag keeps its other values, as the cell's configuration adds to them),
//   - --random-seed set to the trial's seed (when it has one),
//   - for a trial whose warm-up the experiment skipped, every warm-up flag left out (the flags
//     whose input_config key is a loadgen warm-up key).
// Parsing it gives the trial's configuration (tested), apart from the artifact folder: the
// experiment writes into its own layout.
//
// Thread safety: pure functions (they read the flag table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiment/sweep.h"

namespace servebench::experiment {

// `argv` is config::ParsedArgs::argv ("profile", flags...). The result starts with "profile".
std::vector<std::string> trial_argv(const std::vector<std::string>& argv, const Cell& cell,
                                    std::optional<uint64_t> seed, bool without_warmup);

// The same, as one shell-quoted line ("servebench profile ...") with secrets redacted
// (config/redaction.h).
std::string trial_command(const std::vector<std::string>& argv, const Cell& cell,
                          std::optional<uint64_t> seed, bool without_warmup);

}  // namespace servebench::experiment
