#include "load/body_store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/env.h"

namespace servebench::load {
namespace {

constexpr size_t kReserve = size_t{1} << 40;  // address space only: 1 TiB of bodies at most
constexpr size_t kChunk = size_t{64} << 20;   // the mapping grows by 64 MiB

Error io_error(const std::string& what) {
  return Error{ErrorCode::kIo, fmt::format("{}: {}", what, std::strerror(errno))};
}

}  // namespace

std::string BodyStore::default_dir() {
  return core::env().get_or(core::EnvVar::kTmpdir, "/var/tmp");
}

Result<std::unique_ptr<BodyStore>> BodyStore::open(const std::string& dir) {
  std::string path = dir + "/servebench-bodies-XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    return tl::unexpected(io_error(fmt::format(
        "cannot create the request body store in {} (set TMPDIR to a writable folder)", dir)));
  }
  ::unlink(name.data());
  void* base = ::mmap(nullptr, kReserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    ::close(fd);
    return tl::unexpected(io_error("cannot reserve address space for the request body store"));
  }
  return std::unique_ptr<BodyStore>(new BodyStore(fd, static_cast<char*>(base), kReserve));
}

BodyStore::~BodyStore() {
  ::munmap(base_, reserved_);
  ::close(fd_);
}

Result<std::string_view> BodyStore::append(std::string_view body) {
  if (size_ + body.size() > reserved_)
    return tl::unexpected(Error{ErrorCode::kIo, "request bodies exceed the body store's 1 TiB"});
  for (size_t done = 0; done < body.size();) {
    const ssize_t n = ::pwrite(fd_, body.data() + done, body.size() - done,
                               static_cast<off_t>(size_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return tl::unexpected(io_error("cannot write the request body store"));
    done += static_cast<size_t>(n);
  }
  const size_t end = size_ + body.size();
  if (end > mapped_) {
    const size_t want = std::min(reserved_, (end + kChunk - 1) / kChunk * kChunk);
    // Pages past the end of the file are never read: views cover written bytes only.
    void* at = ::mmap(base_ + mapped_, want - mapped_, PROT_READ, MAP_SHARED | MAP_FIXED, fd_,
                      static_cast<off_t>(mapped_));
    if (at == MAP_FAILED) return tl::unexpected(io_error("cannot map the request body store"));
    mapped_ = want;
  }
  std::string_view view(base_ + size_, body.size());
  size_ = end;
  return view;
}

void BodyStore::release(std::string_view view) const {
  const auto at = reinterpret_cast<uintptr_t>(view.data());
  const auto base = reinterpret_cast<uintptr_t>(base_);
  if (view.empty() || at < base || at >= base + mapped_) return;  // not in the store
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto from = (at + page - 1) / page * page;
  const auto to = (at + view.size()) / page * page;
  if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

}  // namespace servebench::load
