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

std::string repo_folder(const std::string& cache, HubRepoType type, std::string_view repo_id) {
  std::string name = type == HubRepoType::kDataset ? "datasets--" : "models--";
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

HubFile tokenizer_file(std::string_view repo_id, const std::string& revision) {
  HubFile f;
  f.repo_id = std::string(repo_id);
  f.revision = revision;
  f.filename = "tokenizer.json";
  f.what = "tokenizer '" + f.repo_id + "'";
  f.no_network_fix = "pass --tokenizer";
  return f;
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

std::string find_cached_hub_file(const std::string& cache, const HubFile& file) {
  std::string repo = repo_folder(cache, file.type, file.repo_id);
  std::string commit =
      is_commit_hash(file.revision) ? file.revision : read_small_file(repo + "/refs/" + file.revision);
  // A mirror that names no commit leaves the snapshot under the revision's own name (store()).
  if (commit.empty()) commit = file.revision;
  std::string path = repo + "/snapshots/" + commit + "/" + file.filename;
  return is_file(path) ? path : "";
}

std::string find_cached_tokenizer(const std::string& cache, std::string_view repo_id,
                                  const std::string& revision) {
  const std::string path = find_cached_hub_file(cache, tokenizer_file(repo_id, revision));
  return path.empty() ? "" : path.substr(0, path.size() - std::string_view("/tokenizer.json").size());
}

Result<std::string> resolve_hub_tokenizer(std::string_view repo_id, const LoadOptions& options) {
  return resolve_hub_tokenizer(repo_id, options, HubEnvironment::from_env());
}

Result<std::string> resolve_hub_tokenizer(std::string_view repo_id, const LoadOptions& options,
                                          const HubEnvironment& env) {
  HubFile f = tokenizer_file(repo_id, options.revision.empty() ? "main" : options.revision);
  f.allow_network = options.allow_network;
  f.network_timeout_ms = options.network_timeout_ms;
  SB_TRY_ASSIGN(std::string path, resolve_hub_file(f, env));
  return path.substr(0, path.size() - std::string_view("/tokenizer.json").size());
}

namespace {

Status download_error(const HubFile& f, const std::string& shown, const Result<Download>& resp) {
  const std::string& rev = f.revision;
  if (!resp && resp.error().code == ErrorCode::kInterrupted)
    return make_error(ErrorCode::kInterrupted, f.what + " download interrupted");
  if (!resp)
    return make_error(ErrorCode::kNotFound, f.what + " cannot be downloaded from " + shown + " (" +
                                                resp.error().message +
                                                "); check the network or set HF_HUB_OFFLINE=1 and pass a path");
  if (resp->status == 401 || resp->status == 403)
    return make_error(ErrorCode::kInvalidArgument, f.what + " is gated or private on " + shown + " (HTTP " +
                                                       std::to_string(resp->status) +
                                                       "); accept its licence and set HF_TOKEN");
  if (resp->status == 404)
    return make_error(ErrorCode::kNotFound, f.what + " (revision " + rev + ") has no " + f.filename + " on " +
                                                shown + " (HTTP 404); check the " +
                                                (f.type == HubRepoType::kDataset ? "dataset" : "model") +
                                                " id and revision");
  if (resp->status != 200)
    return make_error(ErrorCode::kNotFound,
                      f.what + " download from " + shown + " failed with HTTP " + std::to_string(resp->status));
  return {};
}

// Stores a downloaded body as blobs/<etag> with snapshots/<commit>/<file> linked to it.
Result<std::string> store(const HubFile& f, const std::string& cache, const Download& d) {
  const std::string& rev = f.revision;
  std::string commit = is_commit_hash(d.commit) ? d.commit : (is_commit_hash(rev) ? rev : "");
  if (commit.empty()) commit = rev;  // no commit header (a minimal mirror): name it after the revision
  std::string etag = d.etag;
  const bool etag_ok = !etag.empty() && etag.find('/') == std::string::npos && etag.find("..") == std::string::npos;
  if (!etag_ok) etag = "file-" + commit + "-" + std::to_string(std::hash<std::string>{}(f.filename));
  const std::string repo = repo_folder(cache, f.type, f.repo_id);
  const std::string snap = repo + "/snapshots/" + commit;
  const size_t slash = f.filename.rfind('/');
  const std::string sub = slash == std::string::npos ? "" : "/" + f.filename.substr(0, slash);
  if (!mkdirs(repo + "/blobs") || !mkdirs(snap + sub) || !mkdirs(repo + "/refs"))
    return make_error(ErrorCode::kIo, "cannot create Hugging Face cache folder " + repo + "; check HF_HUB_CACHE permissions");
  if (!write_file_atomic(repo + "/blobs/" + etag, d.body))
    return make_error(ErrorCode::kIo, "cannot write to Hugging Face cache " + repo);
  const std::string link = snap + "/" + f.filename;
  std::string up = "../../blobs/" + etag;
  for (char c : sub)
    if (c == '/') up = "../" + up;
  ::unlink(link.c_str());
  if (::symlink(up.c_str(), link.c_str()) != 0 && !write_file_atomic(link, d.body))
    return make_error(ErrorCode::kIo, "cannot write to Hugging Face cache " + snap);
  if (rev != commit) write_file_atomic(repo + "/refs/" + rev, commit);
  return link;
}

}  // namespace

Result<std::string> resolve_hub_file(const HubFile& f, const HubEnvironment& env) {
  std::string cached = find_cached_hub_file(env.cache_dir, f);
  if (!cached.empty()) return cached;
  if (env.offline)
    return make_error(ErrorCode::kNotFound, f.what + " (revision " + f.revision +
                                                ") is not in the Hugging Face cache " + env.cache_dir +
                                                " and HF_HUB_OFFLINE=1; download it or pass a path");
  if (!f.allow_network)
    return make_error(ErrorCode::kNotFound,
                      f.what + " is not in the Hugging Face cache " + env.cache_dir + "; " + f.no_network_fix);
  const std::string prefix = f.type == HubRepoType::kDataset ? "/datasets/" : "/";
  const std::string url = env.endpoint + prefix + f.repo_id + "/resolve/" + f.revision + "/" + f.filename;
  const std::string shown = core::redact_url_user_info(env.endpoint);  // messages: no credentials
  auto resp = http_get(url, env.token, f.network_timeout_ms);
  SB_TRY(download_error(f, shown, resp));
  return store(f, env.cache_dir, *resp);
}

}  // namespace servebench::tokenizer
