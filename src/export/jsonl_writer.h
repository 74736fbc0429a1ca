// JsonlWriter: one append-only per-request export file (profile_export.jsonl, raw JSONL) shared
// by the record-processing threads. Each append() is one locked fwrite of a whole batch of
// lines, so lines never interleave and the lock is taken once per batch, not per record.
//
// A failed write (disk full) does not stop the run: the first error is kept and close() returns
// it, so the summary files are still attempted and the command reports the loss.
//
// Thread safety: append() from any thread; open() and close() from the owning thread, close()
// after the last append().
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::exporter {

class JsonlWriter {
 public:
  // Creates (truncates) `path`. Fails with kIo naming the path.
  static Result<std::unique_ptr<JsonlWriter>> open(const std::string& path);
  ~JsonlWriter();
  JsonlWriter(const JsonlWriter&) = delete;
  JsonlWriter& operator=(const JsonlWriter&) = delete;

  void append(std::string_view text);
  // Flushes and closes; the first write error, if any. Further appends are ignored.
  Status close();
  const std::string& path() const { return path_; }
  int64_t bytes_written() const;

 private:
  JsonlWriter(std::string path, std::FILE* file) : path_(std::move(path)), file_(file) {}

  const std::string path_;
  mutable std::mutex mu_;
  std::FILE* file_;
  bool failed_ = false;
  int64_t bytes_ = 0;
};

}  // namespace servebench::exporter
