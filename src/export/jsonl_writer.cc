#include "export/jsonl_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace servebench::exporter {
namespace {

constexpr size_t kBlock = 1u << 20;  // a multiple of every logical block size O_DIRECT needs
constexpr size_t kAlign = 4096;

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
    block_.reset(static_cast<char*>(std::aligned_alloc(kAlign, kBlock)));
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

// The full block, with O_DIRECT; a refusal (EINVAL: the filesystem takes the flag at open but
// not the write) switches the writer to ordinary writes for good.
void JsonlWriter::write_block() {
  const char* data = block_.get() + tail_written_;
  const size_t size = filled_ - tail_written_;
  const ssize_t n = ::pwrite(direct_fd_, block_.get(), kBlock, block_offset_);
  if (n != static_cast<ssize_t>(kBlock)) {
    ::close(direct_fd_);
    direct_fd_ = -1;
    // What O_DIRECT may have written partly is rewritten whole.
    failed_ = !write_at(fd_, data, size, block_offset_ + static_cast<int64_t>(tail_written_));
  }
  block_offset_ += static_cast<int64_t>(filled_);
  filled_ = tail_written_ = 0;
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
    if (!failed_ && steady_ns() - last_tail_ns_ >= options_.tail_flush_interval_ns) write_tail();
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
