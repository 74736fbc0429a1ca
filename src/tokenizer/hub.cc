#include "tokenizer/hub.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>

#include "control/control_client.h"
#include "core/env.h"
#include "core/units.h"

namespace servebench::tokenizer {
namespace {

bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string read_small_file(const std::string& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

bool mkdirs(const std::string& path) {
  std::string cur;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty() && ::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
    if (i < path.size()) cur += path[i];
  }
  return true;
}

std::string repo_folder(const std::string& cache, std::string_view repo_id) {
  std::string name = "models--";
  for (char c : repo_id) {
    if (c == '/') {
      name += "--";
    } else {
      name += c;
    }
  }
  return cache + "/" + name;
}

bool is_commit_hash(const std::string& s) {
  if (s.size() != 40) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

struct Download {
  int status = 0;
  std::string body;
  std::string commit;
  std::string etag;
};

// The blob's name: X-Linked-ETag (the hub's redirect answer names the LFS blob) or the ETag of
// the answer that carried the body, without W/ and quotes.
std::string etag_of(const std::vector<control::ControlHeader>& headers) {
  std::string etag;
  int answer = -1;
  for (const auto& h : headers) {
    if (h.response != answer) {  // a new answer (redirect): per-answer fields start over
      answer = h.response;
      etag.clear();
    }
    if (h.name == "x-linked-etag" || (h.name == "etag" && etag.empty())) {
      std::string v = h.value;
      if (v.rfind("W/", 0) == 0) v = v.substr(2);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      etag = v;
    }
  }
  return etag;
}

Result<Download> http_get(const std::string& url, const std::string& token, int64_t timeout_ms) {
  control::ControlRequest req;
  req.url = url;
  req.timeout_ns = timeout_ms * core::kNsPerMs;
  req.connect_timeout_ns = std::min<int64_t>(timeout_ms, 5000) * core::kNsPerMs;
  req.max_redirects = 5;  // the hub redirects LFS files to its CDN
  // Mirrors and corporate hubs are often reached through the user's proxy, as with huggingface_hub.
  req.use_env_proxy = true;
  req.user_agent = "servebench/0.1";
  if (!token.empty()) req.headers.push_back("Authorization: Bearer " + token);
  SB_TRY_ASSIGN(control::ControlResponse resp, control::fetch_once(req));
  Download d;
  d.status = resp.http_status;
  d.body = std::move(resp.body);
  for (const auto& h : resp.headers)
    if (h.name == "x-repo-commit") d.commit = h.value;
  d.etag = etag_of(resp.headers);
  return d;
}

bool write_file_atomic(const std::string& path, const std::string& data) {
  std::string tmp = path + ".incomplete." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

HubEnvironment HubEnvironment::from_env() { return from(core::env()); }

HubEnvironment HubEnvironment::from(const core::EnvSnapshot& env) {
  using core::EnvVar;
  HubEnvironment e;
  const std::string home = env.get_or(EnvVar::kHome, "/tmp");
  const std::string hf_home =
      env.get_or(EnvVar::kHfHome, env.get_or(EnvVar::kXdgCacheHome, home + "/.cache") + "/huggingface");
  e.cache_dir = env.get_or(EnvVar::kHfHubCache, env.get_or(EnvVar::kHuggingfaceHubCache, hf_home + "/hub"));
  e.endpoint = env.get_or(EnvVar::kHfEndpoint, "https://huggingface.co");
  while (!e.endpoint.empty() && e.endpoint.back() == '/') e.endpoint.pop_back();
  e.token = env.get_or(EnvVar::kHfToken, env.get_or(EnvVar::kHuggingFaceHubToken, ""));
  const std::string off = env.get_or(EnvVar::kHfHubOffline, "0");
  e.offline = off == "1" || off == "true" || off == "TRUE" || off == "yes";
  return e;
}

std::string find_cached_tokenizer(const std::string& cache, std::string_view repo_id,
                                  const std::string& revision) {
  std::string repo = repo_folder(cache, repo_id);
  std::string commit = is_commit_hash(revision) ? revision : read_small_file(repo + "/refs/" + revision);
  if (!commit.empty()) {
    std::string snap = repo + "/snapshots/" + commit;
    if (is_file(snap + "/tokenizer.json")) return snap;
    return "";
  }
  return "";
}

Result<std::string> resolve_hub_tokenizer(std::string_view repo_id, const LoadOptions& options) {
  return resolve_hub_tokenizer(repo_id, options, HubEnvironment::from_env());
}

Result<std::string> resolve_hub_tokenizer(std::string_view repo_id_view, const LoadOptions& options,
                                          const HubEnvironment& env) {
  std::string repo_id(repo_id_view);
  const std::string& rev = options.revision.empty() ? std::string("main") : options.revision;
  std::string cached = find_cached_tokenizer(env.cache_dir, repo_id, rev);
  if (!cached.empty()) return cached;
  if (env.offline) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' (revision " + rev +
                                                ") is not in the Hugging Face cache " + env.cache_dir +
                                                " and HF_HUB_OFFLINE=1; download it or pass a path");
  }
  if (!options.allow_network) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' is not in the Hugging Face cache " +
                                                env.cache_dir + "; pass --tokenizer");
  }
  std::string url = env.endpoint + "/" + repo_id + "/resolve/" + rev + "/tokenizer.json";
  const std::string shown = core::redact_url_user_info(env.endpoint);  // messages: no credentials
  auto resp = http_get(url, env.token, options.network_timeout_ms);
  if (!resp && resp.error().code == ErrorCode::kInterrupted) {
    return make_error(ErrorCode::kInterrupted, "tokenizer '" + repo_id + "' download interrupted");
  }
  if (!resp) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' cannot be downloaded from " +
                                                shown + " (" + resp.error().message +
                                                "); check the network or set HF_HUB_OFFLINE=1 and pass a path");
  }
  if (resp->status == 401 || resp->status == 403) {
    return make_error(ErrorCode::kInvalidArgument,
                      "tokenizer '" + repo_id + "' is gated or private on " + shown + " (HTTP " +
                          std::to_string(resp->status) + "); accept its licence and set HF_TOKEN");
  }
  if (resp->status == 404) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' (revision " + rev +
                                                ") has no tokenizer.json on " + shown +
                                                " (HTTP 404); check the model id and revision");
  }
  if (resp->status != 200) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' download from " + shown +
                                                " failed with HTTP " + std::to_string(resp->status));
  }
  std::string commit = is_commit_hash(resp->commit) ? resp->commit : (is_commit_hash(rev) ? rev : "");
  if (commit.empty()) {
    // No commit header (a minimal mirror): name the snapshot after the revision.
    commit = rev;
  }
  std::string etag = resp->etag;
  bool etag_ok = !etag.empty() && etag.find('/') == std::string::npos && etag.find("..") == std::string::npos;
  if (!etag_ok) etag = "tokenizer-" + commit;
  std::string repo = repo_folder(env.cache_dir, repo_id);
  std::string snap = repo + "/snapshots/" + commit;
  if (!mkdirs(repo + "/blobs") || !mkdirs(snap) || !mkdirs(repo + "/refs")) {
    return make_error(ErrorCode::kIo, "cannot create Hugging Face cache folder " + repo + "; check HF_HUB_CACHE permissions");
  }
  if (!write_file_atomic(repo + "/blobs/" + etag, resp->body)) {
    return make_error(ErrorCode::kIo, "cannot write to Hugging Face cache " + repo);
  }
  std::string link = snap + "/tokenizer.json";
  ::unlink(link.c_str());
  if (::symlink(("../../blobs/" + etag).c_str(), link.c_str()) != 0 && !write_file_atomic(link, resp->body)) {
    return make_error(ErrorCode::kIo, "cannot write to Hugging Face cache " + snap);
  }
  if (rev != commit) write_file_atomic(repo + "/refs/" + rev, commit);
  return snap;
}

}  // namespace servebench::tokenizer
