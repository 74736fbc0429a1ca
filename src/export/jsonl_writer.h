// JsonlWriter: one append-only per-request export file (profile_export.jsonl, raw JSONL) shared
// by the record-processing threads. Each append() takes the lock once for a whole batch of
// lines, so lines never interleave.
//
// Writing: the bytes collect in a 4 MiB buffer (huge pages where available); every full block is
// written with O_DIRECT, bypassing the page cache. On ext4 the page-cache copy and its
// accounting cost about 1 ns per byte of kernel CPU (2-3 us per 2.3 KB record line at 20,000
// lines/s), a quarter of the client's whole CPU per request; a direct block write costs
// ~0.02-0.05 ns per byte (docs/performance.md). The unaligned tail goes through a second,
// ordinary descriptor at most once per `tail_flush_interval_ns` (default 1 s, checked on each
// append) and at close, so readers of the growing file and a killed process lose at most that
// much. Where the filesystem refuses O_DIRECT (tmpfs, /dev/full, pipes) every append is an
// ordinary write, as before.
//
// Direct appends: a Direct holds the writer's lock and hands out the free part of the block
// itself, so a line formatter (LineCursor) writes straight into it and no line is copied on its
// way to the file. The block has slack past its 4 MiB: a piece that starts before the boundary
// ends in the slack, and the next advance() writes the full block and moves the rest to the
// front. Lines written through a Direct reach the file tail (the 1 s flush) only when the Direct
// ends, so a reader never sees half a line. Without O_DIRECT (or after a fallback) Direct is not
// available: callers append() instead.
//
// A failed write (disk full) does not stop the run: the first error is kept and close() returns
// it, so the summary files are still attempted and the command reports the loss.
//
// Thread safety: append() from any thread; open() and close() from the owning thread, close()
// after the last append().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "core/result.h"

namespace servebench::exporter {

struct JsonlWriterOptions {
  bool direct_io = true;                            // try O_DIRECT for whole blocks
  int64_t tail_flush_interval_ns = 1'000'000'000;  // 0: write the tail on every append
};

class JsonlWriter {
 public:
  // The O_DIRECT write size: a multiple of every logical block size and of the 2 MiB huge page.
  static constexpr size_t kBlockBytes = size_t{4} << 20;

  // Creates (truncates) `path`. Fails with kIo naming the path.
  static Result<std::unique_ptr<JsonlWriter>> open(const std::string& path,
                                                   JsonlWriterOptions options = {});
  ~JsonlWriter();
  JsonlWriter(const JsonlWriter&) = delete;
  JsonlWriter& operator=(const JsonlWriter&) = delete;

  void append(std::string_view text);

  class Direct {
   public:
    explicit Direct(JsonlWriter* w);
    ~Direct();
    Direct(const Direct&) = delete;
    Direct& operator=(const Direct&) = delete;
    // False when the writer cannot take direct appends now (no O_DIRECT, failed, closed): then
    // nothing else may be called.
    explicit operator bool() const { return ok_; }
    // The bytes up to `p` (inside the last range handed out; null: none yet) are the file's
    // next bytes; returns a free range [first, second) of at least `n` bytes.
    std::pair<char*, char*> advance(char* p, size_t n);

   private:
    JsonlWriter* w_;
    std::unique_lock<std::mutex> lock_;
    bool ok_ = false;
  };
  // Writes what is buffered and closes; the first write error, if any. Further appends are
  // ignored.
  Status close();
  const std::string& path() const { return path_; }
  int64_t bytes_written() const;
  // Whether whole blocks are being written with O_DIRECT (false after a fallback).
  bool direct() const;

 private:
  struct AlignedFree {
    void operator()(char* p) const;
  };
  JsonlWriter(std::string path, int fd, int direct_fd, JsonlWriterOptions options);
  void write_block();
  void grow_block(size_t free_bytes);
  void write_buffered();
  void write_tail();
  void write_tail_if_due();
  bool write_at(int fd, const char* data, size_t size, int64_t offset);

  const std::string path_;
  const JsonlWriterOptions options_;
  mutable std::mutex mu_;
  int fd_ = -1;         // ordinary descriptor: tails, fallback
  int direct_fd_ = -1;  // O_DIRECT descriptor, -1 when unavailable
  std::unique_ptr<char, AlignedFree> block_;
  size_t capacity_ = 0;      // bytes of block_: the block plus slack
  size_t filled_ = 0;        // bytes in block_
  size_t tail_written_ = 0;  // bytes of block_ already written through fd_
  int64_t block_offset_ = 0;  // file offset of block_[0]
  int64_t last_tail_ns_ = 0;
  bool failed_ = false;
  int64_t bytes_ = 0;
};

}  // namespace servebench::exporter
