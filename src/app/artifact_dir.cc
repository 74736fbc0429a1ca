#include "app/artifact_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace servebench::app {
namespace {

namespace fs = std::filesystem;

Error dir_error(const std::string& root, const std::string& what) {
  return Error{
      ErrorCode::kInvalidArgument,
      fmt::format(
          "--artifact-dir '{}': {}; pick a folder you can write, e.g. --artifact-dir ./artifacts",
          root, what)};
}

// Creates `dir` and its missing parents one by one, recording what it created (only what this
// process made: a folder another process made meanwhile is not ours to remove). Shards started
// together race on the same new folders, and one's probe may remove an empty parent between
// another's steps: a vanished parent (ENOENT) restarts the walk, a few times.
Status make_dirs(const std::string& root, const fs::path& dir, std::vector<std::string>* created) {
  for (int attempt = 0;; ++attempt) {
    fs::path partial;
    std::error_code ec;
    for (const auto& part : dir) {
      partial /= part;
      const auto st = fs::status(partial, ec);
      if (fs::exists(st)) {
        if (!fs::is_directory(st))
          return tl::unexpected(
              dir_error(root, fmt::format("'{}' is not a folder", partial.string())));
        continue;
      }
      if (fs::create_directory(partial, ec)) {
        created->push_back(partial.string());
      } else if (ec) {
        break;
      }
    }
    if (!ec) return {};
    if (ec != std::errc::no_such_file_or_directory || attempt == 3)
      return tl::unexpected(
          dir_error(root, fmt::format("cannot create '{}' ({})", partial.string(), ec.message())));
  }
}

// Creates, writes and removes a probe file: a folder can exist and still refuse files
// (read-only mounts, permissions, /proc).
Status probe(const std::string& root, const fs::path& dir) {
  const std::string path = (dir / fmt::format(".servebench-probe-{}", getpid())).string();
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return tl::unexpected(dir_error(
        root, fmt::format("cannot write in '{}' ({})", dir.string(), std::strerror(errno))));
  const bool wrote = write(fd, "probe\n", 6) == 6;
  const int saved = errno;
  const bool closed = close(fd) == 0;
  unlink(path.c_str());
  if (!wrote || !closed)
    return tl::unexpected(dir_error(
        root, fmt::format("cannot write in '{}' ({})", dir.string(), std::strerror(saved))));
  return {};
}

}  // namespace

Status check_export_prefix(const std::string& prefix) {
  if (prefix.empty()) return {};
  if (prefix.find('/') != std::string::npos || prefix.find('\\') != std::string::npos ||
      prefix == "." || prefix == ".." || prefix.find('\0') != std::string::npos) {
    return make_error(
        ErrorCode::kInvalidArgument,
        fmt::format(
            "--profile-export-prefix '{}' must be a file name, not a path: the files go into the "
            "artifact folder; choose the folder with --artifact-dir and give a plain name, e.g. "
            "--profile-export-prefix my_run",
            prefix));
  }
  return {};
}

Result<ArtifactDir> prepare_artifact_dir(const std::string& root, const std::string& run_folder,
                                         const std::string& prefix) {
  if (auto p = check_export_prefix(prefix); !p) return tl::unexpected(p.error());
  if (root.empty()) return tl::unexpected(dir_error(root, "empty folder name"));
  ArtifactDir out;
  const fs::path dir = run_folder.empty() ? fs::path(root) : fs::path(root) / run_folder;
  out.path = dir.string();
  if (auto st = make_dirs(root, dir, &out.created); !st) {
    remove_unused(out);
    return tl::unexpected(st.error());
  }
  if (auto st = probe(root, dir); !st) {
    remove_unused(out);
    return tl::unexpected(st.error());
  }
  return out;
}

void remove_unused(const ArtifactDir& dir) {
  for (auto it = dir.created.rbegin(); it != dir.created.rend(); ++it) {
    std::error_code ec;
    if (!fs::is_empty(*it, ec) || ec) return;
    fs::remove(*it, ec);
  }
}

}  // namespace servebench::app
