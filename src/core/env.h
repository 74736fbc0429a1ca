// The process environment, read once. Every environment variable servebench reads is a row of
// env_vars() (docs/environment.md is the same table for users); nothing else calls getenv, so
// a run is described completely by its flags plus this snapshot, which is recorded in the run's
// input_config (env_snapshot_json) with secrets redacted.
//
// The snapshot is taken at static initialization of the first binary that links this file (so
// before main runs and before any thread exists) and never changes afterwards: a setenv() after
// start-up is not seen. Tests that need other values build an EnvSnapshot themselves, or call
// reload_env_for_test() after setenv().
//
// Thread safety: env() and the snapshot are immutable after start-up; any thread may read them.
// reload_env_for_test() must not race with readers.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace servebench::core {

enum class EnvVar {
  kHome,
  kXdgCacheHome,
  kServebenchCacheDir,
  kServebenchCorpus,
  kServebenchInputMaxBytes,
  kServebenchInputMaxLineBytes,
  kServebenchHttpClient,
  kServebenchCurlVerbose,
  kHfHubCache,
  kHuggingfaceHubCache,
  kHfHome,
  kHfEndpoint,
  kHfToken,
  kHuggingFaceHubToken,
  kHfHubOffline,
  kAiperfBasetenSessionColumn,
  kAiperfHttpVideoPollInterval,
  kServebenchWekaSplitAgents,
  kAiperfWekaSplitFlattenedAgents,
  kHttpProxyLower,
  kHttpProxyUpper,
  kHttpsProxyLower,
  kHttpsProxyUpper,
  kAllProxyLower,
  kAllProxyUpper,
  kNoProxyLower,
  kNoProxyUpper,
  kServebenchBodyStoreMib,
  kTmpdir,
};
inline constexpr size_t kEnvVarCount = static_cast<size_t>(EnvVar::kTmpdir) + 1;

// How a value is written into artifacts.
enum class EnvRecording {
  kPlain,   // as is
  kSecret,  // "<redacted>" (tokens)
  kUrl,     // user info of a URL replaced by "<redacted>" (proxies may carry credentials)
};

struct EnvVarInfo {
  EnvVar var;
  const char* name;
  EnvRecording recording;
  const char* use;  // one line: who reads it and what for
};

// Every variable servebench reads, in EnvVar order.
std::span<const EnvVarInfo> env_vars();
const EnvVarInfo& env_var_info(EnvVar var);

class EnvSnapshot {
 public:
  // Reads every variable of env_vars() from the process environment now.
  static EnvSnapshot capture();

  // The value; nullopt when unset. An empty value stays distinct from an unset one
  // (SERVEBENCH_CACHE_DIR="" turns caching off).
  const std::optional<std::string>& get(EnvVar var) const {
    return values_[static_cast<size_t>(var)];
  }
  // The value when set and non-empty, else `fallback`.
  std::string get_or(EnvVar var, std::string_view fallback) const;
  void set(EnvVar var, std::optional<std::string> value) {
    values_[static_cast<size_t>(var)] = std::move(value);
  }

  // (name, value) of every set variable in table order, as recorded in artifacts (redacted).
  std::vector<std::pair<std::string, std::string>> recorded() const;

 private:
  std::array<std::optional<std::string>, kEnvVarCount> values_;
};

// The process snapshot (see the file comment).
const EnvSnapshot& env();

// recorded() of env() as one JSON object, e.g. {"HF_TOKEN":"<redacted>","HOME":"/root"};
// "{}" when none is set.
std::string env_snapshot_json();

// `value` with a URL's user info ("user:pass@") replaced by "<redacted>@".
std::string redact_url_user_info(std::string_view value);

// Tests only: takes the snapshot again from the current process environment.
void reload_env_for_test();

}  // namespace servebench::core
