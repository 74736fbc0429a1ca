// FFmpeg's libraries (libavutil, libswscale, libavcodec, libavformat), opened with dlopen the
// first time a video is checked or encoded, not linked. Linked, they and the ~130 libraries they
// pull in (codecs, TLS, X11, rsvg, ...) were loaded by the dynamic linker at every start of every
// servebench command, video or not: ~35 ms of CPU per process (docs/performance.md). The
// compiled-in headers fix the ABI, so the libraries opened are the sonames of that major version
// (libavcodec.so.59 with FFmpeg 5.1's headers), the ones the Debian package depends on.
//
// Thread safety: ffmpeg_api() loads once (a function-local static); the table is then read-only.
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
}

#include "core/result.h"

namespace servebench::media {

// Each function servebench calls, with the library that exports it (avutil, swscale, avcodec,
// avformat: the order they are opened in, each after the ones it needs).
#define SB_FFMPEG_FUNCTIONS(X)                                                                  \
  X(avutil, av_channel_layout_copy)                                                             \
  X(avutil, av_channel_layout_default)                                                          \
  X(avutil, av_dict_free)                                                                       \
  X(avutil, av_dict_set)                                                                        \
  X(avutil, av_frame_alloc)                                                                     \
  X(avutil, av_frame_free)                                                                      \
  X(avutil, av_frame_get_buffer)                                                                \
  X(avutil, av_frame_make_writable)                                                             \
  X(avutil, av_free)                                                                            \
  X(avutil, av_freep)                                                                           \
  X(avutil, av_log_set_callback)                                                                \
  X(avutil, av_malloc)                                                                          \
  X(avutil, av_sample_fmt_is_planar)                                                            \
  X(avutil, av_strerror)                                                                        \
  X(swscale, sws_freeContext)                                                                   \
  X(swscale, sws_getContext)                                                                    \
  X(swscale, sws_scale)                                                                         \
  X(avcodec, av_packet_alloc)                                                                   \
  X(avcodec, av_packet_free)                                                                    \
  X(avcodec, av_packet_rescale_ts)                                                              \
  X(avcodec, avcodec_alloc_context3)                                                            \
  X(avcodec, avcodec_find_encoder_by_name)                                                      \
  X(avcodec, avcodec_free_context)                                                              \
  X(avcodec, avcodec_open2)                                                                     \
  X(avcodec, avcodec_parameters_from_context)                                                   \
  X(avcodec, avcodec_receive_packet)                                                            \
  X(avcodec, avcodec_send_frame)                                                                \
  X(avformat, av_guess_format)                                                                  \
  X(avformat, av_interleaved_write_frame)                                                       \
  X(avformat, av_write_trailer)                                                                 \
  X(avformat, avformat_alloc_output_context2)                                                   \
  X(avformat, avformat_free_context)                                                            \
  X(avformat, avformat_new_stream)                                                              \
  X(avformat, avformat_query_codec)                                                             \
  X(avformat, avformat_write_header)                                                            \
  X(avformat, avio_alloc_context)                                                               \
  X(avformat, avio_context_free)                                                                \
  X(avformat, avio_flush)

struct FfmpegApi {
#define SB_FFMPEG_POINTER(lib, name) decltype(&::name) name = nullptr;
  SB_FFMPEG_FUNCTIONS(SB_FFMPEG_POINTER)
#undef SB_FFMPEG_POINTER
};

// The functions, loaded on the first call; later calls return the same table or the same
// error: one line naming the library that did not open (or the symbol it lacks) and the Debian
// packages that provide them (kInvalidArgument: video inputs cannot be made here).
Result<const FfmpegApi*> ffmpeg_api();

// The loaded table. REQUIRES: ffmpeg_api() succeeded (every video entry point checks it first).
const FfmpegApi& av();

}  // namespace servebench::media
