// FFmpeg codec and container setup for video_encoder.cc (internal to src/media): finds the
// encoders by name, checks the container carries them, opens them with the spec's sizes and
// rates. Every error is one line naming the flag behind the value (kInvalidArgument).
//
// libav's own log is silenced (it would print x264's banner and multi-line errors on stderr);
// its last error line is kept per thread and added to our messages instead.
//
// Thread safety: the functions are safe to call from any thread.
#pragma once

#include <memory>
#include <string>

#include "core/result.h"
#include "media/ffmpeg_api.h"
#include "media/video_encoder.h"

namespace servebench::media::detail {

struct CodecFree {
  void operator()(AVCodecContext* c) const { av().avcodec_free_context(&c); }
};
using CodecCtx = std::unique_ptr<AVCodecContext, CodecFree>;

// Installs the quiet log callback (once per process).
void quiet_av_logging();

// av_strerror's text for `err`, with libav's last logged error line when there is one.
std::string av_message(int err);

// The muxer for spec.format ("mp4" or "webm").
Result<const AVOutputFormat*> output_format(const VideoEncodeSpec& spec);

// Opened encoders for the video track and the audio track (REQUIRES: spec.audio.channels > 0).
Result<CodecCtx> open_video_codec(const VideoEncodeSpec& spec, const AVOutputFormat* container);
Result<CodecCtx> open_audio_codec(const VideoEncodeSpec& spec, const AVOutputFormat* container);

}  // namespace servebench::media::detail
