// JsonlWriter: appends whole lines to a file from many threads (--record-requests,
// --ground-truth). Each line is written and flushed under a mutex, so a reader that sees a
// response finish and then polls the file finds the complete line shortly after.
//
// Thread safety: write_line is safe from any thread.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "core/result.h"

namespace servebench::mock {

class JsonlWriter {
 public:
  static Result<std::unique_ptr<JsonlWriter>> open(const std::string& path);
  ~JsonlWriter();
  JsonlWriter(const JsonlWriter&) = delete;
  JsonlWriter& operator=(const JsonlWriter&) = delete;

  // `line` without its newline.
  void write_line(const std::string& line);

 private:
  explicit JsonlWriter(std::FILE* f) : file_(f) {}
  std::mutex mu_;
  std::FILE* file_;
};

}  // namespace servebench::mock
