// The bundled config templates (src/yaml_config/templates/*.yaml, embedded in the binary).
#pragma once

#include <string>
#include <vector>

namespace servebench::yaml_config {

struct Template {
  const char* name;  // file name without .yaml
  const char* text;
};

// Sorted by name.
const std::vector<Template>& templates();

}  // namespace servebench::yaml_config
