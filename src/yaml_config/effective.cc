// profile_config.yaml: the effective flags of a run, loadable with -f. Secret values (the API
// key, secret header values, URL user info) are written as ${VAR} placeholders, never as text.
#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/secrets.h"
#include "yaml_config/yaml_config.h"

namespace servebench::yaml_config {
namespace {

std::string env_name(std::string header) {
  std::string out = "SERVEBENCH_HEADER_";
  for (char c : header) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_');
  return out;
}

std::string placeholder(const std::string& flag, const std::string& value) {
  if (flag == "--api-key") return "${OPENAI_API_KEY}";
  if ((flag == "-H" || flag == "--header") && core::secrets::scrub(value) != value) {
    const std::string name = value.substr(0, value.find(':'));
    return name + ": ${" + env_name(name) + "}";
  }
  if ((flag == "-u" || flag == "--url") && core::secrets::scrub(value) != value) return "${SERVEBENCH_URL}";
  return value;
}

}  // namespace

std::string effective_config_yaml(const std::vector<std::string>& words) {
  std::string out =
      "# The effective configuration of this run (servebench profile): every flag, from the config\n"
      "# file and the command line. Reproduce the run: servebench profile -f profile_config.yaml\n"
      "# Secrets are not written: export the ${...} variables named below before reusing it.\n"
      "schemaVersion: \"2.0\"\n"
      "servebench_flags:\n";
  std::string prev;
  for (const auto& w : words) {
    std::string v = w;
    const size_t eq = w.find('=');
    if (w.rfind("--", 0) == 0 && eq != std::string::npos)
      v = w.substr(0, eq + 1) + placeholder(w.substr(0, eq), w.substr(eq + 1));
    else if (!prev.empty() && prev[0] == '-')
      v = placeholder(prev, w);
    // A byte that is not UTF-8 (a -H value typed as such) becomes U+FFFD: YAML carries text only.
    out += "  - " + nlohmann::json(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    prev = w;
  }
  return out;
}

bool write_effective_config(const std::string& dir, const std::vector<std::string>& words) {
  std::ofstream f(dir + "/profile_config.yaml", std::ios::binary | std::ios::trunc);
  f << effective_config_yaml(words);
  f.close();
  return static_cast<bool>(f);
}

}  // namespace servebench::yaml_config
