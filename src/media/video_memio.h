// A muxer's output file kept in memory (internal to src/media). libavformat writes through a
// seekable AVIOContext (WebM seeks back to write the duration and cues, MP4 to write atom
// sizes), and the MP4 muxer's faststart pass re-opens "the file" for reading to move the moov
// atom to the front: an io_open hook hands it a read context over the same bytes.
//
// Thread safety: one MemoryFile per muxer, used by the thread that runs it.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

struct AVFormatContext;
struct AVIOContext;

namespace servebench::media::detail {

// A position in the bytes: the writer's, or one second-pass reader's.
struct MemoryCursor {
  std::string* data;
  int64_t pos = 0;
};

class MemoryFile {
 public:
  MemoryFile() = default;
  ~MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  // Makes `fmt` write here (custom IO) and open its second-pass readers here.
  // REQUIRES: called once, before avformat_write_header; this outlives fmt's use.
  Status attach(AVFormatContext* fmt);

  // The file's bytes, once the trailer is written.
  std::string take();

  // A read context over the bytes (io_open's answer); freed by io_close2.
  AVIOContext* open_reader();

 private:
  std::string data_;
  MemoryCursor writer_{&data_};
  AVIOContext* pb_ = nullptr;
};

}  // namespace servebench::media::detail
