// load_tokenizer / resolve_default_tokenizer: maps a --tokenizer spec to an implementation.
#include <sys/stat.h>

#include <string>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/hub.h"
#include "tokenizer/simple_tokenizer.h"
#include "tokenizer/tiktoken.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

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
    if (is_file(json)) return load_tokenizer_json_file(json);
    return make_error(ErrorCode::kNotFound, "tokenizer folder '" + path +
                                                "' has no tokenizer.json; pass the file or a folder holding one");
  }
  if (ends_with(path, ".tiktoken")) return load_tiktoken_file(path);
  return load_tokenizer_json_file(path);
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
  if (spec == "builtin" || spec == "o200k_base") return builtin_tokenizer();
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
  auto b = builtin_tokenizer();
  return b ? *b : std::shared_ptr<const Tokenizer>(std::make_shared<SimpleTokenizer>());
}

}  // namespace servebench::tokenizer
