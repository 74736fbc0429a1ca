// The runs a config file stands for: the sweep's cells (grid: every combination of the comma
// lists; zip: the i-th value of each; scenarios: one per named scenario), each as profile flags
// without the experiment-level flags (sweep, multi-run), which is what one run receives.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "yaml_config/yaml_config.h"

namespace servebench::yaml_config {

struct Cell {
  std::string label;              // "concurrency=4,isl=128" or the scenario's name
  std::vector<std::string> argv;  // profile flags of this one run
};

// True for flags that configure the experiment loop rather than one run.
bool is_experiment_flag(const std::string& flag);

Result<std::vector<Cell>> expand_cells(const std::vector<FlagArg>& args);

}  // namespace servebench::yaml_config
