#include "core/env.h"

#include <cstdlib>
#include <iterator>

#include "core/json_text.h"

namespace servebench::core {
namespace {

using R = EnvRecording;

// docs/environment.md mirrors this table (a unit test checks that every name is documented).
constexpr EnvVarInfo kVars[] = {
    {EnvVar::kHome, "HOME", R::kPlain, "home folder: default cache locations"},
    {EnvVar::kXdgCacheHome, "XDG_CACHE_HOME", R::kPlain, "cache root (absolute paths only)"},
    {EnvVar::kServebenchCacheDir, "SERVEBENCH_CACHE_DIR", R::kPlain,
     "servebench's cache folder; empty turns caching off"},
    {EnvVar::kServebenchCorpus, "SERVEBENCH_CORPUS", R::kPlain,
     "a text file replacing the embedded synthetic-prompt corpus"},
    {EnvVar::kServebenchInputMaxBytes, "SERVEBENCH_INPUT_MAX_BYTES", R::kPlain,
     "size limit for --input-file (and a corpus file)"},
    {EnvVar::kServebenchInputMaxLineBytes, "SERVEBENCH_INPUT_MAX_LINE_BYTES", R::kPlain,
     "line-length limit for line-based --input-file formats"},
    {EnvVar::kServebenchHttpClient, "SERVEBENCH_HTTP_CLIENT", R::kPlain,
     "'curl' routes plain http:// load through libcurl"},
    {EnvVar::kServebenchCurlVerbose, "SERVEBENCH_CURL_VERBOSE", R::kPlain,
     "set: libcurl traces every transfer to stderr"},
    {EnvVar::kHfHubCache, "HF_HUB_CACHE", R::kPlain, "Hugging Face hub cache folder"},
    {EnvVar::kHuggingfaceHubCache, "HUGGINGFACE_HUB_CACHE", R::kPlain,
     "older name of HF_HUB_CACHE"},
    {EnvVar::kHfHome, "HF_HOME", R::kPlain, "Hugging Face home (cache in $HF_HOME/hub)"},
    {EnvVar::kHfEndpoint, "HF_ENDPOINT", R::kUrl, "hub URL (default https://huggingface.co)"},
    {EnvVar::kHfToken, "HF_TOKEN", R::kSecret, "hub token for gated or private tokenizers"},
    {EnvVar::kHuggingFaceHubToken, "HUGGING_FACE_HUB_TOKEN", R::kSecret, "older name of HF_TOKEN"},
    {EnvVar::kHfHubOffline, "HF_HUB_OFFLINE", R::kPlain, "1: never download tokenizers"},
    {EnvVar::kAiperfBasetenSessionColumn, "AIPERF_DATASET_BASETEN_SESSION_COLUMN", R::kPlain,
     "baseten_trace session key column (provided_session_id or poor_man_session_id)"},
    {EnvVar::kAiperfHttpVideoPollInterval, "AIPERF_HTTP_VIDEO_POLL_INTERVAL", R::kPlain,
     "video_generation: seconds between job polls (0.001 to 10, default 0.1)"},
    {EnvVar::kServebenchWekaSplitAgents, "SERVEBENCH_WEKA_SPLIT_AGENTS", R::kPlain,
     "weka_trace: false keeps flattened agents on one chain (default true)"},
    {EnvVar::kAiperfWekaSplitFlattenedAgents, "AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS", R::kPlain,
     "AIPerf's name of SERVEBENCH_WEKA_SPLIT_AGENTS (used when that is unset)"},
    {EnvVar::kHttpProxyLower, "http_proxy", R::kUrl, "proxy for http:// load (libcurl)"},
    {EnvVar::kHttpProxyUpper, "HTTP_PROXY", R::kUrl, "proxy for http:// load (libcurl)"},
    {EnvVar::kHttpsProxyLower, "https_proxy", R::kUrl, "proxy for https:// load (libcurl)"},
    {EnvVar::kHttpsProxyUpper, "HTTPS_PROXY", R::kUrl, "proxy for https:// load (libcurl)"},
    {EnvVar::kAllProxyLower, "all_proxy", R::kUrl, "proxy for all load (libcurl)"},
    {EnvVar::kAllProxyUpper, "ALL_PROXY", R::kUrl, "proxy for all load (libcurl)"},
    {EnvVar::kNoProxyLower, "no_proxy", R::kPlain, "hosts reached without the proxy"},
    {EnvVar::kNoProxyUpper, "NO_PROXY", R::kPlain, "hosts reached without the proxy"},
    {EnvVar::kServebenchBodyStoreMib, "SERVEBENCH_BODY_STORE_MIB", R::kPlain,
     "MiB of request bodies past which they move to a file-backed store (default 256)"},
    {EnvVar::kTmpdir, "TMPDIR", R::kPlain, "folder of the request body store (default /var/tmp)"},
};
static_assert(std::size(kVars) == kEnvVarCount, "one row per EnvVar");

constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < std::size(kVars); ++i)
    if (static_cast<size_t>(kVars[i].var) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "rows in EnvVar order");

EnvSnapshot& storage() {
  static EnvSnapshot snapshot = EnvSnapshot::capture();
  return snapshot;
}

// Taken during static initialization: before main, before any thread, before any setenv().
[[maybe_unused]] const EnvSnapshot& g_taken_at_start_up = storage();

std::string recorded_value(const EnvVarInfo& info, const std::string& value) {
  switch (info.recording) {
    case R::kSecret:
      return "<redacted>";
    case R::kUrl:
      return redact_url_user_info(value);
    case R::kPlain:
      break;
  }
  return value;
}

}  // namespace

std::span<const EnvVarInfo> env_vars() { return kVars; }

const EnvVarInfo& env_var_info(EnvVar var) { return kVars[static_cast<size_t>(var)]; }

EnvSnapshot EnvSnapshot::capture() {
  EnvSnapshot s;
  for (const auto& info : kVars)
    if (const char* v = std::getenv(info.name)) s.set(info.var, std::string(v));
  return s;
}

std::string EnvSnapshot::get_or(EnvVar var, std::string_view fallback) const {
  const auto& v = get(var);
  return v && !v->empty() ? *v : std::string(fallback);
}

std::vector<std::pair<std::string, std::string>> EnvSnapshot::recorded() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& info : kVars)
    if (const auto& v = get(info.var)) out.emplace_back(info.name, recorded_value(info, *v));
  return out;
}

const EnvSnapshot& env() { return storage(); }

std::string env_snapshot_json() {
  std::string out = "{";
  for (const auto& [name, value] : env().recorded()) {
    if (out.size() > 1) out += ',';
    append_json_string(name, &out);
    out += ':';
    append_json_string(value, &out);
  }
  return out + "}";
}

std::string redact_url_user_info(std::string_view value) {
  const size_t scheme = value.find("://");
  const size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
  const size_t end = value.find_first_of("/?#", start);
  const size_t at = value.substr(0, end).rfind('@');
  if (at == std::string_view::npos || at < start) return std::string(value);
  return std::string(value.substr(0, start)) + "<redacted>" + std::string(value.substr(at));
}

void reload_env_for_test() { storage() = EnvSnapshot::capture(); }

}  // namespace servebench::core
