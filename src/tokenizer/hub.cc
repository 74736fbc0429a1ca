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
  std::string commit;
  std::string etag;
  std::string path;   // the streamed body (removed by the caller on failure)
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

// GETs `url` and streams the body into `path` (never held in memory); an answer over
// `max_bytes` fails (kNetwork) and leaves a partial file for the caller to remove.
Result<Download> http_get_to_file(const std::string& url, const std::string& token, int64_t timeout_ms,
                                  int64_t max_bytes, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) return make_error(ErrorCode::kIo, "cannot write " + path + "; check the cache folder's permissions");
  bool write_failed = false;
  control::ControlRequest req;
  req.url = url;
  req.timeout_ns = timeout_ms * core::kNsPerMs;
  req.connect_timeout_ns = std::min<int64_t>(timeout_ms, 5000) * core::kNsPerMs;
  req.max_redirects = 5;  // the hub redirects LFS files to its CDN
  // Mirrors and corporate hubs are often reached through the user's proxy, as with huggingface_hub.
  req.use_env_proxy = true;
  req.user_agent = "servebench/0.1";
  req.keep_body = false;
  req.max_streamed_bytes = max_bytes;
  req.on_body = [&](std::string_view piece) {
    if (!write_failed && std::fwrite(piece.data(), 1, piece.size(), out) != piece.size()) write_failed = true;
  };
  if (!token.empty()) req.headers.push_back("Authorization: Bearer " + token);
  auto resp = control::fetch_once(req);
  if (std::fclose(out) != 0) write_failed = true;
  if (!resp) return tl::unexpected(resp.error());
  if (write_failed) return make_error(ErrorCode::kIo, "cannot write " + path + " (disk full?)");
  Download d;
  d.status = resp->http_status;
  d.path = path;
  for (const auto& h : resp->headers)
    if (h.name == "x-repo-commit") d.commit = h.value;
  d.etag = etag_of(resp->headers);
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

std::string parent_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// A revision in a URL path: "refs/convert/parquet" -> "refs%2Fconvert%2Fparquet".
std::string url_revision(const std::string& rev) {
  std::string out;
  for (char c : rev) {
    if (c == '/') {
      out += "%2F";
    } else {
      out += c;
    }
  }
  return out;
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
  if (!resp && resp.error().message.find("larger than") != std::string::npos)
    return make_error(ErrorCode::kInvalidArgument, f.what + " " + f.filename + " is larger than the download cap of " +
                                                       std::to_string(f.max_bytes) +
                                                       " bytes; download it yourself and pass its path");
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
  if (!etag_ok) {
    etag = "file-" + commit + "-" + std::to_string(std::hash<std::string>{}(f.filename));
    std::replace(etag.begin(), etag.end(), '/', '-');  // a revision such as refs/convert/parquet
  }
  const std::string repo = repo_folder(cache, f.type, f.repo_id);
  const std::string snap = repo + "/snapshots/" + commit;
  const size_t slash = f.filename.rfind('/');
  const std::string sub = slash == std::string::npos ? "" : "/" + f.filename.substr(0, slash);
  if (!mkdirs(repo + "/blobs") || !mkdirs(snap + sub) || !mkdirs(repo + "/refs"))
    return make_error(ErrorCode::kIo, "cannot create Hugging Face cache folder " + repo + "; check HF_HUB_CACHE permissions");
  if (std::rename(d.path.c_str(), (repo + "/blobs/" + etag).c_str()) != 0)
    return make_error(ErrorCode::kIo, "cannot write to Hugging Face cache " + repo);
  const std::string link = snap + "/" + f.filename;
  std::string up = "../../blobs/" + etag;
  for (char c : sub + commit)  // a snapshot named after a ref such as refs/convert/parquet is deeper
    if (c == '/') up = "../" + up;
  ::unlink(link.c_str());
  if (::symlink(up.c_str(), link.c_str()) != 0)
    return make_error(ErrorCode::kIo, "cannot link " + link + " in the Hugging Face cache");
  if (rev != commit && mkdirs(parent_of(repo + "/refs/" + rev))) write_file_atomic(repo + "/refs/" + rev, commit);
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
  const std::string url = env.endpoint + prefix + f.repo_id + "/resolve/" + url_revision(f.revision) + "/" + f.filename;
  const std::string shown = core::redact_url_user_info(env.endpoint);  // messages: no credentials
  const std::string blobs = repo_folder(env.cache_dir, f.type, f.repo_id) + "/blobs";
  if (!mkdirs(blobs))
    return make_error(ErrorCode::kIo, "cannot create Hugging Face cache folder " + blobs + "; check HF_HUB_CACHE permissions");
  const std::string tmp = blobs + "/download.incomplete." + std::to_string(::getpid());
  auto resp = http_get_to_file(url, env.token, f.network_timeout_ms, f.max_bytes, tmp);
  if (auto bad = download_error(f, shown, resp); !bad) {
    ::unlink(tmp.c_str());
    return tl::unexpected(bad.error());
  }
  auto stored = store(f, env.cache_dir, *resp);
  if (!stored) ::unlink(tmp.c_str());
  return stored;
}

Result<std::string> fetch_url_file(const std::string& url, const std::string& path, const std::string& what,
                                   const HubEnvironment& env, int64_t max_bytes) {
  if (is_file(path)) return path;
  if (env.offline)
    return make_error(ErrorCode::kNotFound, what + " is not at " + path + " and HF_HUB_OFFLINE=1; download " +
                                                core::redact_url_user_info(url) + " there");
  if (!mkdirs(parent_of(path))) return make_error(ErrorCode::kIo, "cannot create " + parent_of(path));
  const std::string tmp = path + ".incomplete." + std::to_string(::getpid());
  auto resp = http_get_to_file(url, "", 600000, max_bytes, tmp);
  const bool ok = resp && resp->status == 200;
  if (!ok) ::unlink(tmp.c_str());
  if (!resp && resp.error().code == ErrorCode::kInterrupted) return make_error(ErrorCode::kInterrupted, what + " download interrupted");
  if (!resp)
    return make_error(ErrorCode::kNotFound, what + " cannot be downloaded from " + core::redact_url_user_info(url) + " (" +
                                                resp.error().message + "); download it to " + path);
  if (!ok)
    return make_error(ErrorCode::kNotFound, what + " download from " + core::redact_url_user_info(url) +
                                                " failed with HTTP " + std::to_string(resp->status) + "; download it to " + path);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return make_error(ErrorCode::kIo, "cannot write " + path);
  return path;
}

}  // namespace servebench::tokenizer
