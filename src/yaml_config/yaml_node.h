// Reading YAML nodes with file:line errors, key normalization (camelCase → snake_case), "did you
// mean" hints and ${VAR:default} / {{ name }} substitution. Internal to sb_yaml_config.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "yaml_config/yaml_config.h"

namespace servebench::yaml_config {

using ::servebench::core::make_error;
inline tl::unexpected<Error> make_error(Error e) { return tl::unexpected<Error>(std::move(e)); }

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  void set_variables(std::map<std::string, std::string> vars) { vars_ = std::move(vars); }
  std::string where(const YAML::Node& n) const;
  Error fail(const YAML::Node& n, const std::string& msg) const;

  // The mapping's keys, normalized, each checked against `allowed`.
  Result<std::vector<std::pair<std::string, YAML::Node>>> entries(
      const YAML::Node& map, const std::string& path, const std::vector<std::string>& allowed) const;

  Result<std::string> str(const YAML::Node& n, const std::string& path) const;
  Result<double> number(const YAML::Node& n, const std::string& path) const;
  Result<long long> integer(const YAML::Node& n, const std::string& path, long long min) const;
  Result<bool> boolean(const YAML::Node& n, const std::string& path) const;
  Result<double> duration_s(const YAML::Node& n, const std::string& path) const;

  // Adds "--flag value" with the node's origin.
  void add(std::vector<FlagArg>* out, const YAML::Node& n, std::string flag, std::string value) const;
  void add_switch(std::vector<FlagArg>* out, const YAML::Node& n, std::string flag) const;

 private:
  Result<std::string> substitute(const YAML::Node& n, const std::string& text) const;
  std::string file_;
  std::map<std::string, std::string> vars_;
};

std::string snake_case(const std::string& key);
std::string number_text(double v);

}  // namespace servebench::yaml_config
