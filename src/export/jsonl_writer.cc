#include "export/jsonl_writer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace servebench::exporter {
namespace {

constexpr size_t kBlock = JsonlWriter::kBlockBytes;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kSlack = size_t{64} << 10;  // room past the block for a Direct's last piece

// The block buffer: 2 MiB-aligned, its whole 2 MiB pages asked to be transparent huge pages.
// Every O_DIRECT write pins the buffer's pages and hands them to the block device; a huge page is
// one pin and one physically contiguous segment, where scattered 4 KiB pages are one each (the
// virtio queue takes 254 segments per request). Measured on 900 MB of blocks:
// 0.05-0.10 s of system time with 1 MiB of small pages, 0.016-0.025 s with 4 MiB of huge ones
// (docs/performance.md). Where no huge page is available the buffer is ordinary memory.
char* aligned_block(size_t bytes) {
  const size_t size = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  char* p = static_cast<char*>(std::aligned_alloc(kHugePage, size));
  if (p != nullptr) ::madvise(p, bytes / kHugePage * kHugePage, MADV_HUGEPAGE);
  return p;
}

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void JsonlWriter::AlignedFree::operator()(char* p) const { std::free(p); }

JsonlWriter::JsonlWriter(std::string path, int fd, int direct_fd, JsonlWriterOptions options)
    : path_(std::move(path)), options_(options), fd_(fd), direct_fd_(direct_fd) {
  if (direct_fd_ >= 0) {
    capacity_ = kBlock + kSlack;
    block_.reset(aligned_block(capacity_));
    if (!block_) {
      ::close(direct_fd_);
      direct_fd_ = -1;
    }
  }
  last_tail_ns_ = steady_ns();
}

Result<std::unique_ptr<JsonlWriter>> JsonlWriter::open(const std::string& path,
                                                       JsonlWriterOptions options) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return make_error(ErrorCode::kIo, fmt::format("cannot write {}: {} (check --artifact-dir)",
                                                  path, std::strerror(errno)));
  }
  // Only regular files: a device or pipe given as the path keeps ordinary writes.
  int direct_fd = -1;
  struct stat st {};
  if (options.direct_io && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    direct_fd = ::open(path.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
  }
  return std::unique_ptr<JsonlWriter>(new JsonlWriter(path, fd, direct_fd, options));
}

JsonlWriter::~JsonlWriter() { (void)close(); }

bool JsonlWriter::write_at(int fd, const char* data, size_t size, int64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return true;
}

// The full block (REQUIRES filled_ >= kBlock), with O_DIRECT; what a Direct wrote past it moves
// to the front. A refusal (EINVAL: the filesystem takes the flag at open but not the write)
// switches the writer to ordinary writes for good, and everything buffered is written so.
void JsonlWriter::write_block() {
  const ssize_t n = ::pwrite(direct_fd_, block_.get(), kBlock, block_offset_);
  if (n != static_cast<ssize_t>(kBlock)) {
    ::close(direct_fd_);
    direct_fd_ = -1;
    return write_buffered();  // what O_DIRECT may have written partly is rewritten whole
  }
  const size_t rest = filled_ - kBlock;
  if (rest > 0) std::memmove(block_.get(), block_.get() + kBlock, rest);
  block_offset_ += static_cast<int64_t>(kBlock);
  filled_ = rest;
  tail_written_ = tail_written_ > kBlock ? tail_written_ - kBlock : 0;
}

// Everything buffered, with ordinary writes (after a fallback: nothing stays buffered then).
void JsonlWriter::write_buffered() {
  if (filled_ == 0) return;
  if (!failed_)
    failed_ = !write_at(fd_, block_.get() + tail_written_, filled_ - tail_written_,
                        block_offset_ + static_cast<int64_t>(tail_written_));
  block_offset_ += static_cast<int64_t>(filled_);
  filled_ = tail_written_ = 0;
}

// Room for `free_bytes` after what is buffered (one piece larger than the slack).
void JsonlWriter::grow_block(size_t free_bytes) {
  const size_t want = filled_ + free_bytes;
  if (want <= capacity_) return;
  std::unique_ptr<char, AlignedFree> bigger(aligned_block(want));
  if (!bigger) std::abort();  // as operator new would
  std::memcpy(bigger.get(), block_.get(), filled_);
  block_ = std::move(bigger);
  capacity_ = want;
}

JsonlWriter::Direct::Direct(JsonlWriter* w) : w_(w), lock_(w->mu_) {
  ok_ = w_->fd_ >= 0 && w_->direct_fd_ >= 0 && !w_->failed_;
}

JsonlWriter::Direct::~Direct() {
  if (!ok_) return;
  JsonlWriter& w = *w_;
  if (w.direct_fd_ < 0) {
    w.write_buffered();
    return;
  }
  w.write_tail_if_due();
}

std::pair<char*, char*> JsonlWriter::Direct::advance(char* p, size_t n) {
  JsonlWriter& w = *w_;
  if (p != nullptr) {
    const size_t filled = static_cast<size_t>(p - w.block_.get());
    w.bytes_ += static_cast<int64_t>(filled - w.filled_);
    w.filled_ = filled;
  }
  while (w.filled_ >= kBlock && w.direct_fd_ >= 0) w.write_block();
  if (w.direct_fd_ < 0) w.write_buffered();  // fell back to ordinary writes mid-batch
  w.grow_block(n);
  return {w.block_.get() + w.filled_, w.block_.get() + w.capacity_};
}

// The tail, when the last one was written tail_flush_interval_ns ago or more.
void JsonlWriter::write_tail_if_due() {
  if (!failed_ && steady_ns() - last_tail_ns_ >= options_.tail_flush_interval_ns) write_tail();
}

void JsonlWriter::write_tail() {
  if (filled_ == tail_written_) return;
  failed_ = !write_at(fd_, block_.get() + tail_written_, filled_ - tail_written_,
                      block_offset_ + static_cast<int64_t>(tail_written_));
  tail_written_ = filled_;
  last_tail_ns_ = steady_ns();
}

void JsonlWriter::append(std::string_view text) {
  if (text.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ < 0 || failed_) return;
  bytes_ += static_cast<int64_t>(text.size());
  while (!text.empty() && direct_fd_ >= 0 && !failed_) {
    const size_t take = std::min(text.size(), kBlock - filled_);
    std::memcpy(block_.get() + filled_, text.data(), take);
    filled_ += take;
    text.remove_prefix(take);
    if (filled_ == kBlock) write_block();
  }
  if (direct_fd_ >= 0) {
    write_tail_if_due();
    return;
  }
  // Ordinary writes (no O_DIRECT, or after a fallback, which leaves nothing buffered): at the
  // end of what is written, so a line is in the file as soon as its batch.
  if (!text.empty() && !failed_) {
    failed_ = !write_at(fd_, text.data(), text.size(), block_offset_);
    block_offset_ += static_cast<int64_t>(text.size());
  }
}

Status JsonlWriter::close() {
  std::lock_guard<std::mutex> lock(mu_);
  if (fd_ < 0) return {};
  if (direct_fd_ >= 0 && !failed_) write_tail();
  if (direct_fd_ >= 0) ::close(direct_fd_);
  direct_fd_ = -1;
  failed_ |= ::close(fd_) != 0;
  fd_ = -1;
  if (failed_) return make_error(ErrorCode::kIo, fmt::format("cannot write {}: disk full?", path_));
  return {};
}

int64_t JsonlWriter::bytes_written() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

bool JsonlWriter::direct() const {
  std::lock_guard<std::mutex> lock(mu_);
  return direct_fd_ >= 0;
}

}  // namespace servebench::exporter
