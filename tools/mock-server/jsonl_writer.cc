#include "jsonl_writer.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace servebench::mock {

Result<std::unique_ptr<JsonlWriter>> JsonlWriter::open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    return make_error(ErrorCode::kIo, "cannot open '" + path + "' for writing: " +
                                          std::strerror(errno) + " (check the directory)");
  }
  return std::unique_ptr<JsonlWriter>(new JsonlWriter(f));
}

JsonlWriter::JsonlWriter(std::FILE* f) : file_(f), thread_([this] { run(); }) {}

JsonlWriter::~JsonlWriter() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
  std::fclose(file_);
}

void JsonlWriter::write_line(std::string line) {
  line.push_back('\n');
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(line));
  }
  cv_.notify_one();
}

void JsonlWriter::run() {
  // File I/O must never compete with the timed event loops: ordinary policy, low priority,
  // even when the server runs under a real-time policy (threads inherit it).
  sched_param param{};
  pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
  std::vector<std::string> batch;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    batch.swap(queue_);
    const bool stopping = stop_;
    lock.unlock();
    // One write(2) per batch of whole lines, so a reader polling the file rarely sees a torn
    // line (readers must still only trust newline-terminated lines).
    std::string joined;
    for (const std::string& line : batch) joined += line;
    const int fd = fileno(file_);
    for (size_t off = 0; off < joined.size();) {
      const ssize_t n = ::write(fd, joined.data() + off, joined.size() - off);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        break;  // disk full or closed: drop the batch rather than block the server
      }
      off += static_cast<size_t>(n);
    }
    batch.clear();
    lock.lock();
    if (stopping && queue_.empty()) return;
  }
}

}  // namespace servebench::mock
