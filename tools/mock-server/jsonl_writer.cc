#include "jsonl_writer.h"

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

JsonlWriter::~JsonlWriter() { std::fclose(file_); }

void JsonlWriter::write_line(const std::string& line) {
  std::lock_guard<std::mutex> lock(mu_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
  std::fflush(file_);
}

}  // namespace servebench::mock
