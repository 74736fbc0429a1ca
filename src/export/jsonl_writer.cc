#include "export/jsonl_writer.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace servebench::exporter {

Result<std::unique_ptr<JsonlWriter>> JsonlWriter::open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return make_error(ErrorCode::kIo, fmt::format("cannot write {}: {} (check --artifact-dir)",
                                                  path, std::strerror(errno)));
  }
  return std::unique_ptr<JsonlWriter>(new JsonlWriter(path, f));
}

JsonlWriter::~JsonlWriter() { (void)close(); }

void JsonlWriter::append(std::string_view text) {
  if (text.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (file_ == nullptr || failed_) return;
  // Flushed at once: one write(2) per batch, and a line is on disk as soon as its batch is.
  failed_ = std::fwrite(text.data(), 1, text.size(), file_) != text.size() ||
            std::fflush(file_) != 0;
  if (!failed_) bytes_ += static_cast<int64_t>(text.size());
}

Status JsonlWriter::close() {
  std::lock_guard<std::mutex> lock(mu_);
  if (file_ == nullptr) return {};
  failed_ |= std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed_) return make_error(ErrorCode::kIo, fmt::format("cannot write {}: disk full?", path_));
  return {};
}

int64_t JsonlWriter::bytes_written() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

}  // namespace servebench::exporter
