// Hugging Face hub access for tokenizers and dataset files: the local cache in huggingface_hub's
// layout and, on a miss, a download of one file into that same layout with the control client
// (control/control_client.h: redirects followed, the user's proxy honoured, Ctrl-C aborts).
//
//   <cache>/models--<org>--<name>/refs/<revision>            commit hash
//   <cache>/models--<org>--<name>/snapshots/<commit>/tokenizer.json -> ../../blobs/<etag>
//   <cache>/models--<org>--<name>/blobs/<etag>
//   <cache>/datasets--<org>--<name>/...                       the same for a dataset repo
//
// <cache> is $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub. $HF_ENDPOINT (default https://huggingface.co), $HF_TOKEN and
// $HF_HUB_OFFLINE=1 are honoured, as read at start-up (core/env.h). Network attempts are bounded
// by options.network_timeout_ms.
//
// Thread safety: call from one thread at start-up (writes the cache).
#pragma once

#include <string>
#include <string_view>

#include "core/env.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

struct HubEnvironment {
  std::string cache_dir;
  std::string endpoint;
  std::string token;
  bool offline = false;
  static HubEnvironment from(const core::EnvSnapshot& env);
  static HubEnvironment from_env();  // from(core::env())
};

enum class HubRepoType { kModel, kDataset };

inline constexpr int64_t kDefaultHubMaxBytes = int64_t{8} << 30;  // 8 GiB

// One file of a hub repository. `what` names it in messages ("tokenizer 'org/x'").
struct HubFile {
  HubRepoType type = HubRepoType::kModel;
  std::string repo_id;
  std::string revision = "main";
  std::string filename;
  std::string what;
  std::string no_network_fix = "pass a local path";  // when allow_network is false
  bool allow_network = true;
  int64_t network_timeout_ms = 60000;
  // The download is streamed to the cache (never held in memory); a larger file fails with a
  // one-line error naming the cap.
  int64_t max_bytes = kDefaultHubMaxBytes;
};

// The path of the file in the cache's snapshot, from the cache or downloaded (when
// allow_network and not offline). Errors as resolve_hub_tokenizer's, naming `what`.
Result<std::string> resolve_hub_file(const HubFile& file, const HubEnvironment& env);
// A file that is not on the hub (a GitHub raw URL): `path` when it exists, else downloaded there
// (streamed, `max_bytes` cap) unless env.offline. Errors name `what`, the URL and the fix.
Result<std::string> fetch_url_file(const std::string& url, const std::string& path, const std::string& what,
                                   const HubEnvironment& env, int64_t max_bytes = kDefaultHubMaxBytes);

// Cache lookup only; empty string when absent.
std::string find_cached_hub_file(const std::string& cache_dir, const HubFile& file);

// Returns the snapshot folder holding tokenizer.json for `repo_id` at options.revision, from
// the cache or downloaded (when options.allow_network and not offline). Errors are one line
// naming the repo and the fix (kNotFound for 404 / offline misses, kInvalidArgument for gated
// repos, kNetwork for transport failures).
Result<std::string> resolve_hub_tokenizer(std::string_view repo_id, const LoadOptions& options);
Result<std::string> resolve_hub_tokenizer(std::string_view repo_id, const LoadOptions& options,
                                          const HubEnvironment& env);

// Cache lookup only; empty string when absent.
std::string find_cached_tokenizer(const std::string& cache_dir, std::string_view repo_id,
                                  const std::string& revision);

}  // namespace servebench::tokenizer
