// JsonlWriter: appends whole lines to a file from many threads (--record-requests,
// --ground-truth) without blocking the event loops on file I/O: write_line() queues the line
// and a background thread writes and flushes batches, so a reader that sees a response finish
// finds its line shortly after (tests poll for it). A reader polling the file must only trust
// newline-terminated lines: the last one may still be being written.
//
// Thread safety: write_line is safe from any thread. The destructor writes everything queued.
#pragma once

#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace servebench::mock {

class JsonlWriter {
 public:
  static Result<std::unique_ptr<JsonlWriter>> open(const std::string& path);
  ~JsonlWriter();
  JsonlWriter(const JsonlWriter&) = delete;
  JsonlWriter& operator=(const JsonlWriter&) = delete;

  // `line` without its newline.
  void write_line(std::string line);

 private:
  explicit JsonlWriter(std::FILE* f);
  void run();

  std::FILE* file_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> queue_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace servebench::mock
