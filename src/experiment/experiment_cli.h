// `servebench profile` with lists, --sweep-scenarios or --num-profile-runs > 1: plans the
// experiment (exit 2 on any bad cell before anything is sent), runs it, prints progress and the
// sweep table on stderr and returns the exit code (experiment.h).
#pragma once

#include "app/signal_watcher.h"
#include "config/cli_options.h"

namespace servebench::experiment {

int run_experiment_cli(const config::ParsedArgs& parsed, app::SignalWatcher* watcher);

}  // namespace servebench::experiment
