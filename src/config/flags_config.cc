// -f/--config FILE.yaml (config/flag_table.h). The profile command expands the file into flags
// before parsing (yaml_config/yaml_config.h); the entry is here so --help lists it.
#include "config/flag_table.h"

namespace servebench::config {

void add_config_file_flags(std::vector<FlagSpec>* out) {
  FlagSpec s;
  s.names = "-f,--config";
  s.help = "YAML config file (AIPerf layout); flags given on the command line override it";
  s.apply = [](const FlagInput&, BenchmarkConfig*) -> Status { return {}; };
  out->push_back(std::move(s));
}

}  // namespace servebench::config
