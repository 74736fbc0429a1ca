// load_tokenizer / resolve_default_tokenizer: maps a --tokenizer spec to an implementation.
//
// Every tokenizer loaded here carries a fingerprint() (see tokenizer.h): the loaded object is
// wrapped in a thin forwarding Tokenizer that knows where its bytes came from. For a file, the
// file's identity (device, inode, size, mtime) is taken before and after loading; fingerprint()
// later re-reads and hashes the file only if it still has that identity, so the hash describes
// the bytes that were loaded. Hashing is deferred to the first fingerprint() call because only
// some callers (the corpus count cache) need it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/content_hash.h"
#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/hub.h"
#include "tokenizer/simple_tokenizer.h"
#include "tokenizer/tiktoken.h"
#include "tokenizer/tokenizer.h"

// SHA-256 of the embedded o200k blob, computed by CMake (builtin_blob.cc).
extern "C" const char sb_o200k_blob_sha256[];

namespace servebench::tokenizer {
namespace {

// What identifies one version of a file without reading it.
struct FileStamp {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = -1;
  int64_t mtime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_of(const struct stat& st) {
  return FileStamp{st.st_dev, st.st_ino, st.st_size,
                   static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

bool stamp_path(const std::string& path, FileStamp* out) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  *out = stamp_of(st);
  return true;
}

// Hash of the file's bytes if it still is the version `want`; "" otherwise.
std::string hash_file_if_unchanged(const std::string& path, const FileStamp& want) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st;
  std::string out;
  if (::fstat(fd, &st) == 0 && stamp_of(st) == want) {
    core::ContentHash h;
    std::string buf(1 << 20, '\0');
    off_t total = 0;
    ssize_t n;
    while ((n = ::read(fd, buf.data(), buf.size())) > 0) {
      h.update(std::string_view(buf.data(), static_cast<size_t>(n)));
      total += n;
    }
    // Re-check after reading: a writer that kept the inode but changed the bytes changes mtime.
    struct stat after;
    if (n == 0 && total == want.size && ::fstat(fd, &after) == 0 && stamp_of(after) == want) out = h.hex();
  }
  ::close(fd);
  return out;
}

// Forwards to the loaded tokenizer and adds its fingerprint, computed once on first use.
class Fingerprinted final : public Tokenizer {
 public:
  Fingerprinted(std::shared_ptr<const Tokenizer> inner, std::function<std::string()> compute)
      : inner_(std::move(inner)), compute_(std::move(compute)) {}
  std::vector<TokenId> encode(std::string_view text, bool add_special_tokens) const override {
    return inner_->encode(text, add_special_tokens);
  }
  size_t count(std::string_view text) const override { return inner_->count(text); }
  std::string decode(const std::vector<TokenId>& ids, bool skip_special_tokens) const override {
    return inner_->decode(ids, skip_special_tokens);
  }
  std::string name() const override { return inner_->name(); }
  size_t vocab_size() const override { return inner_->vocab_size(); }
  bool is_added_token(TokenId id) const override { return inner_->is_added_token(id); }
  std::string fingerprint() const override {
    std::call_once(once_, [this] { fingerprint_ = compute_(); });
    return fingerprint_;
  }

 private:
  std::shared_ptr<const Tokenizer> inner_;
  std::function<std::string()> compute_;
  mutable std::once_flag once_;
  mutable std::string fingerprint_;
};

std::shared_ptr<const Tokenizer> with_fingerprint(std::shared_ptr<const Tokenizer> inner,
                                                  std::function<std::string()> compute) {
  return std::make_shared<Fingerprinted>(std::move(inner), std::move(compute));
}

Result<std::shared_ptr<const Tokenizer>> builtin_with_fingerprint() {
  auto b = builtin_tokenizer();
  if (!b) return b;
  return with_fingerprint(*b, [] { return std::string("builtin o200k_base sbtk sha256:") + sb_o200k_blob_sha256; });
}

// Loads `path` with `load` and fingerprints it by content. `label` goes into the fingerprint:
// a tiktoken file's encoding (its regex and special tokens) comes from its file name.
Result<std::shared_ptr<const Tokenizer>> load_file_with_fingerprint(
    const std::string& path, std::string label,
    Result<std::shared_ptr<const Tokenizer>> (*load)(const std::string&)) {
  FileStamp before, after;
  const bool stamped = stamp_path(path, &before);
  auto t = load(path);
  if (!t) return t;
  if (!stamped || !stamp_path(path, &after) || !(before == after)) return t;  // changed meanwhile
  return with_fingerprint(*t, [path, label = std::move(label), before] {
    std::string h = hash_file_if_unchanged(path, before);
    return h.empty() ? h : label + " sha:" + h + " bytes:" + std::to_string(before.size);
  });
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_dir(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Result<std::shared_ptr<const Tokenizer>> load_path(const std::string& path) {
  if (is_dir(path)) {
    std::string json = path + "/tokenizer.json";
    if (is_file(json)) return load_file_with_fingerprint(json, "tokenizer.json", &load_tokenizer_json_file);
    return make_error(ErrorCode::kNotFound, "tokenizer folder '" + path +
                                                "' has no tokenizer.json; pass the file or a folder holding one");
  }
  if (ends_with(path, ".tiktoken")) {
    return load_file_with_fingerprint(path, "tiktoken " + base_name(path), &load_tiktoken_file);
  }
  return load_file_with_fingerprint(path, "tokenizer.json", &load_tokenizer_json_file);
}

// A hub id looks like "org/name" (one slash, no leading "/" or ".").
bool looks_like_hub_id(std::string_view s) {
  if (s.empty() || s[0] == '/' || s[0] == '.' || s[0] == '~') return false;
  size_t slash = s.find('/');
  return slash != std::string_view::npos && slash > 0 && slash + 1 < s.size() &&
         s.find('/', slash + 1) == std::string_view::npos;
}

}  // namespace

Result<std::shared_ptr<const Tokenizer>> load_tokenizer(std::string_view spec_view,
                                                        const LoadOptions& options) {
  std::string spec(spec_view);
  if (spec == "simple") return std::shared_ptr<const Tokenizer>(std::make_shared<SimpleTokenizer>());
  if (spec == "builtin" || spec == "o200k_base") return builtin_with_fingerprint();
  if (spec.empty()) {
    return make_error(ErrorCode::kInvalidArgument, "--tokenizer is empty; pass a path, a hub id or 'builtin'");
  }
  if (is_file(spec) || is_dir(spec)) return load_path(spec);
  if (looks_like_hub_id(spec)) {
    auto dir = resolve_hub_tokenizer(spec, options);
    if (!dir) return tl::unexpected(dir.error());
    return load_path(*dir);
  }
  return make_error(ErrorCode::kNotFound,
                    "tokenizer '" + spec +
                        "' is neither a file, a folder, 'builtin' nor a hub id (org/name); check the path");
}

std::shared_ptr<const Tokenizer> resolve_default_tokenizer(std::string_view model,
                                                           const LoadOptions& options,
                                                           std::string* warning) {
  std::string name(model);
  std::string why;
  if (!name.empty()) {
    LoadOptions opts = options;
    bool hub_like = looks_like_hub_id(name);
    if (!hub_like) opts.allow_network = false;  // bare names: cache only
    auto dir = resolve_hub_tokenizer(name, opts);
    if (dir) {
      auto t = load_path(*dir);
      if (t) return *t;
      why = t.error().message;
    } else {
      why = dir.error().message;
    }
  } else {
    why = "no model name";
  }
  if (warning) {
    *warning = "no tokenizer for model '" + name + "' (" + why +
               "); using builtin o200k_base: token counts may differ from the model's (pass --tokenizer)";
  }
  auto b = builtin_with_fingerprint();
  return b ? *b : std::shared_ptr<const Tokenizer>(std::make_shared<SimpleTokenizer>());
}

}  // namespace servebench::tokenizer
