#include "media/ffmpeg_api.h"

#include <dlfcn.h>

extern "C" {
#include <libavutil/macros.h>  // AV_STRINGIFY
}

#include <string>

#include <fmt/format.h>

namespace servebench::media {
namespace {

// The sonames of the headers' major versions.
constexpr const char* kAvutil = "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR);
constexpr const char* kSwscale = "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR);
constexpr const char* kAvcodec = "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR);
constexpr const char* kAvformat = "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR);

std::string missing(const std::string& what) {
  return fmt::format(
      "video inputs need FFmpeg's shared libraries: {}; install them (Debian: apt-get install "
      "libavcodec{} libavformat{} libavutil{} libswscale{})",
      what, LIBAVCODEC_VERSION_MAJOR, LIBAVFORMAT_VERSION_MAJOR, LIBAVUTIL_VERSION_MAJOR,
      LIBSWSCALE_VERSION_MAJOR);
}

struct Loaded {
  FfmpegApi api;
  std::string error;  // empty when every function was found
};

Loaded load() {
  Loaded out;
  void* handles[4] = {};
  const char* names[4] = {kAvutil, kSwscale, kAvcodec, kAvformat};
  for (int i = 0; i < 4; ++i) {
    // Never closed: the table points into them for the rest of the process.
    handles[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (handles[i] == nullptr) {
      const char* why = dlerror();
      out.error = missing(why != nullptr ? why : names[i]);
      return out;
    }
  }
  void* const avutil = handles[0];
  void* const swscale = handles[1];
  void* const avcodec = handles[2];
  void* const avformat = handles[3];
#define SB_FFMPEG_LOAD(lib, name)                                                            \
  out.api.name = reinterpret_cast<decltype(&::name)>(dlsym(lib, #name));                     \
  if (out.api.name == nullptr && out.error.empty())                                          \
    out.error = missing(fmt::format("{} has no {}", "lib" #lib, #name));
  SB_FFMPEG_FUNCTIONS(SB_FFMPEG_LOAD)
#undef SB_FFMPEG_LOAD
  return out;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

Result<const FfmpegApi*> ffmpeg_api() {
  const Loaded& l = loaded();
  if (!l.error.empty()) return make_error(ErrorCode::kInvalidArgument, l.error);
  return &l.api;
}

const FfmpegApi& av() { return loaded().api; }

}  // namespace servebench::media
