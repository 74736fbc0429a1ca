// The `benchmark:` body (and the envelope's model/dataset shorthands) → profile flags.
// Internal to sb_yaml_config.
#pragma once

#include "yaml_config/yaml_node.h"

namespace servebench::yaml_config {

Status map_benchmark(const Reader& r, const YAML::Node& body, std::vector<FlagArg>* out);
Status map_models(const Reader& r, const YAML::Node& n, const std::string& path, std::vector<FlagArg>* out);
Status map_dataset(const Reader& r, const YAML::Node& n, const std::string& path, std::vector<FlagArg>* out);
// Sweep parameter names (bare names and dot paths) → the profile flag they set; "" if none.
std::string sweep_flag(const std::string& name);

}  // namespace servebench::yaml_config
