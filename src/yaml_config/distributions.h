// ISL/OSL sampling distributions (AIPerf's YAML shapes: fixed, normal, lognormal, percentile,
// multimodal `peaks`, empirical `points`, with min/max clamps) mapped onto profile flags:
// one normal component each → --isl/--isl-stddev/--osl/--osl-stddev; anything else → a joint
// --sequence-distribution (independent ISL × OSL components). Log-normal shapes become ten
// equal-weight components at their deciles' midpoints (quantiles 0.05, 0.15, ... 0.95); min/max
// clamp component means. Internal to sb_yaml_config.
#pragma once

#include <optional>
#include <vector>

#include "yaml_config/yaml_node.h"

namespace servebench::yaml_config {

struct Component {
  double mean = 0;
  double stddev = 0;
  double weight = 1;
};

Result<std::vector<Component>> read_distribution(const Reader& r, const YAML::Node& n,
                                                 const std::string& path);

// Appends the flags for the given ISL and OSL (either may be absent).
Status add_length_flags(const Reader& r, const YAML::Node& at,
                        const std::optional<std::vector<Component>>& isl,
                        const std::optional<std::vector<Component>>& osl, std::vector<FlagArg>* out);

}  // namespace servebench::yaml_config
