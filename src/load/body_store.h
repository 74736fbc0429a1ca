// A file-backed store for rendered request bodies, used when they are large in total (media
// workloads): each body is written once to an unlinked temporary file and read through a
// read-only shared mapping of it, so the bodies cost page cache (reclaimable, written back to
// disk under pressure) instead of anonymous memory. Views returned by append() stay valid for
// the store's lifetime: the mapping grows inside an address range reserved up front.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::load {

class BodyStore {
 public:
  // A store in `dir` (its file is unlinked at once, so nothing is left behind).
  static Result<std::unique_ptr<BodyStore>> open(const std::string& dir);
  // $TMPDIR, else /var/tmp (disk-backed on common systems, unlike a tmpfs /tmp).
  static std::string default_dir();
  ~BodyStore();
  BodyStore(const BodyStore&) = delete;
  BodyStore& operator=(const BodyStore&) = delete;

  // Writes `body` and returns a view of it in the mapping.
  Result<std::string_view> append(std::string_view body);
  // Drops this process's resident pages of `view` (whole pages inside it); the bytes stay in the
  // file and are read back on the next access. Safe while other threads read the same view.
  void release(std::string_view view) const;
  int64_t bytes() const { return static_cast<int64_t>(size_); }

 private:
  BodyStore(int fd, char* base, size_t reserved) : fd_(fd), base_(base), reserved_(reserved) {}
  int fd_;
  char* base_;
  size_t reserved_;
  size_t size_ = 0;    // bytes written
  size_t mapped_ = 0;  // bytes of the file mapped at base_
};

}  // namespace servebench::load
