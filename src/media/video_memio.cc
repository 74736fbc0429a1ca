#include "media/video_memio.h"

#include "media/ffmpeg_api.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace servebench::media::detail {

namespace {

constexpr int kBufferBytes = 64 * 1024;

int read_bytes(void* opaque, uint8_t* buf, int size) {
  auto* c = static_cast<MemoryCursor*>(opaque);
  const int64_t left = static_cast<int64_t>(c->data->size()) - c->pos;
  if (left <= 0) return AVERROR_EOF;
  const int n = static_cast<int>(std::min<int64_t>(left, size));
  std::memcpy(buf, c->data->data() + c->pos, static_cast<size_t>(n));
  c->pos += n;
  return n;
}

int write_bytes(void* opaque, uint8_t* buf, int size) {
  auto* c = static_cast<MemoryCursor*>(opaque);
  const auto end = static_cast<size_t>(c->pos) + static_cast<size_t>(size);
  if (c->data->size() < end) c->data->resize(end);
  std::memcpy(c->data->data() + c->pos, buf, static_cast<size_t>(size));
  c->pos += size;
  return size;
}

int64_t seek_bytes(void* opaque, int64_t offset, int whence) {
  auto* c = static_cast<MemoryCursor*>(opaque);
  const auto size = static_cast<int64_t>(c->data->size());
  whence &= ~AVSEEK_FORCE;
  if (whence == AVSEEK_SIZE) return size;
  int64_t to = -1;
  if (whence == SEEK_SET) to = offset;
  if (whence == SEEK_CUR) to = c->pos + offset;
  if (whence == SEEK_END) to = size + offset;
  if (to < 0) return AVERROR(EINVAL);
  c->pos = to;
  return to;
}

AVIOContext* make_context(MemoryCursor* cursor, bool write) {
  auto* buffer = static_cast<unsigned char*>(av().av_malloc(kBufferBytes));
  if (buffer == nullptr) return nullptr;
  AVIOContext* pb = av().avio_alloc_context(buffer, kBufferBytes, write ? 1 : 0, cursor,
                                       write ? nullptr : &read_bytes,
                                       write ? &write_bytes : nullptr, &seek_bytes);
  if (pb == nullptr) av().av_free(buffer);
  return pb;
}

void free_context(AVIOContext** pb) {
  if (*pb == nullptr) return;
  av().av_freep(&(*pb)->buffer);
  av().avio_context_free(pb);
}

int open_hook(AVFormatContext* s, AVIOContext** pb, const char* /*url*/, int flags,
              AVDictionary** /*options*/) {
  if ((flags & AVIO_FLAG_WRITE) != 0) return AVERROR(ENOSYS);  // one output file only
  *pb = static_cast<MemoryFile*>(s->opaque)->open_reader();
  return *pb != nullptr ? 0 : AVERROR(ENOMEM);
}

int close_hook(AVFormatContext* /*s*/, AVIOContext* pb) {
  delete static_cast<MemoryCursor*>(pb->opaque);
  free_context(&pb);
  return 0;
}

}  // namespace

MemoryFile::~MemoryFile() { free_context(&pb_); }

Status MemoryFile::attach(AVFormatContext* fmt) {
  pb_ = make_context(&writer_, true);
  if (pb_ == nullptr) return make_error(ErrorCode::kInternal, "video muxer: out of memory");
  fmt->pb = pb_;
  fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
  fmt->opaque = this;
  fmt->io_open = &open_hook;
  fmt->io_close2 = &close_hook;
  return {};
}

AVIOContext* MemoryFile::open_reader() {
  av().avio_flush(pb_);
  auto* cursor = new MemoryCursor{&data_, 0};
  AVIOContext* pb = make_context(cursor, false);
  if (pb == nullptr) delete cursor;
  return pb;
}

std::string MemoryFile::take() {
  av().avio_flush(pb_);
  return std::move(data_);
}

}  // namespace servebench::media::detail
