#include "tokenizer/hub.h"

#include <curl/curl.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace servebench::tokenizer {
namespace {

std::string env_or(const char* name, const std::string& def) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : def;
}

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

struct Response {
  long status = 0;
  std::string body;
  std::string commit;
  std::string etag;
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
  static_cast<Response*>(user)->body.append(data, size * n);
  return size * n;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* r = static_cast<Response*>(user);
  std::string line(data, size * n);
  auto colon = line.find(':');
  if (colon == std::string::npos) {
    if (line.rfind("HTTP/", 0) == 0) {  // a new response (redirect): reset per-response fields
      r->etag.clear();
    }
    return size * n;
  }
  std::string key = line.substr(0, colon);
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.pop_back();
  if (key == "x-repo-commit") r->commit = value;
  if (key == "x-linked-etag" || (key == "etag" && r->etag.empty())) {
    std::string v = value;
    if (v.rfind("W/", 0) == 0) v = v.substr(2);
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    r->etag = v;
  }
  return size * n;
}

Result<Response> http_get(const std::string& url, const std::string& token, int64_t timeout_ms) {
  static const bool init = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == 0; }();
  (void)init;
  CURL* h = curl_easy_init();
  if (!h) return make_error(ErrorCode::kInternal, "libcurl init failed");
  Response r;
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::min<int64_t>(timeout_ms, 5000)));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &r);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "servebench/0.1");
  struct curl_slist* headers = nullptr;
  if (!token.empty()) headers = curl_slist_append(headers, ("Authorization: Bearer " + token).c_str());
  if (headers) curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  CURLcode rc = curl_easy_perform(h);
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r.status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(h);
  if (rc != CURLE_OK) {
    return make_error(rc == CURLE_OPERATION_TIMEDOUT ? ErrorCode::kTimeout : ErrorCode::kNetwork,
                      curl_easy_strerror(rc));
  }
  return r;
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

HubEnvironment HubEnvironment::from_env() {
  HubEnvironment e;
  std::string home = env_or("HOME", "/tmp");
  std::string hf_home = env_or("HF_HOME", env_or("XDG_CACHE_HOME", home + "/.cache") + "/huggingface");
  e.cache_dir = env_or("HF_HUB_CACHE", env_or("HUGGINGFACE_HUB_CACHE", hf_home + "/hub"));
  e.endpoint = env_or("HF_ENDPOINT", "https://huggingface.co");
  while (!e.endpoint.empty() && e.endpoint.back() == '/') e.endpoint.pop_back();
  e.token = env_or("HF_TOKEN", env_or("HUGGING_FACE_HUB_TOKEN", ""));
  std::string off = env_or("HF_HUB_OFFLINE", "0");
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
  auto resp = http_get(url, env.token, options.network_timeout_ms);
  if (!resp) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' cannot be downloaded from " +
                                                env.endpoint + " (" + resp.error().message +
                                                "); check the network or set HF_HUB_OFFLINE=1 and pass a path");
  }
  if (resp->status == 401 || resp->status == 403) {
    return make_error(ErrorCode::kInvalidArgument,
                      "tokenizer '" + repo_id + "' is gated or private on " + env.endpoint + " (HTTP " +
                          std::to_string(resp->status) + "); accept its licence and set HF_TOKEN");
  }
  if (resp->status == 404) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' (revision " + rev +
                                                ") has no tokenizer.json on " + env.endpoint +
                                                " (HTTP 404); check the model id and revision");
  }
  if (resp->status != 200) {
    return make_error(ErrorCode::kNotFound, "tokenizer '" + repo_id + "' download from " + env.endpoint +
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
