// Fuzz target for YAML configuration files (yaml_config/yaml_config.h): the input is the file's
// text. Properties:
//   - nothing crashes, hangs or throws out of load_text;
//   - a rejected file gets one line that names the file ("fuzz.yaml...");
//   - an accepted file maps to flags ("--name") whose origin is a line of the file, and the
//     profile_config.yaml written for those flags loads back to the same flags.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "yaml_config/yaml_config.h"

namespace {

void require(bool ok) {
  if (!ok) std::abort();
}

bool has_secret_placeholder(const std::string& yaml) {
  return yaml.find("${") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto loaded = servebench::yaml_config::load_text(text, "fuzz.yaml");
  if (!loaded) {
    const std::string& m = loaded.error().message;
    require(m.rfind("fuzz.yaml", 0) == 0);
    require(m.find('\n') == std::string::npos);
    return 0;
  }
  for (const auto& a : loaded->args) {
    require(a.flag.rfind("--", 0) == 0 || (a.flag.size() == 2 && a.flag[0] == '-'));
    require(a.origin.rfind("fuzz.yaml:", 0) == 0);
  }
  const std::vector<std::string> words = servebench::yaml_config::to_argv(loaded->args);
  const std::string effective = servebench::yaml_config::effective_config_yaml(words);
  if (has_secret_placeholder(effective)) return 0;  // secrets need the environment to load back
  auto again = servebench::yaml_config::load_text(effective, "fuzz_effective.yaml");
  require(again.has_value());
  require(servebench::yaml_config::to_argv(again->args) == words);
  return 0;
}
