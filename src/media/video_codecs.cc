#include "media/video_codecs.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include <fmt/format.h>

namespace servebench::media {

namespace {

thread_local std::string t_last_av_error;

void log_sink(void* /*avcl*/, int level, const char* format, va_list args) {
  if (level > AV_LOG_ERROR) return;
  char line[512];
  std::vsnprintf(line, sizeof line, format, args);
  std::string text = line;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (!text.empty()) t_last_av_error = std::move(text);
}

tl::unexpected<Error> bad(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

bool is_one_of(AVSampleFormat f) {
  return f == AV_SAMPLE_FMT_FLTP || f == AV_SAMPLE_FMT_FLT || f == AV_SAMPLE_FMT_S16 ||
         f == AV_SAMPLE_FMT_S16P || f == AV_SAMPLE_FMT_S32 || f == AV_SAMPLE_FMT_S32P;
}

// The codec's first sample format that the sample writer handles (AV_SAMPLE_FMT_NONE if none).
AVSampleFormat sample_format(const AVCodec* codec) {
  if (codec->sample_fmts == nullptr) return AV_SAMPLE_FMT_FLTP;
  for (const AVSampleFormat* f = codec->sample_fmts; *f != AV_SAMPLE_FMT_NONE; ++f)
    if (is_one_of(*f)) return *f;
  return AV_SAMPLE_FMT_NONE;
}

AVPixelFormat pixel_format(const AVCodec* codec) {
  if (codec->pix_fmts == nullptr) return AV_PIX_FMT_YUV420P;
  for (const AVPixelFormat* f = codec->pix_fmts; *f != AV_PIX_FMT_NONE; ++f)
    if (*f == AV_PIX_FMT_YUV420P) return *f;
  return codec->pix_fmts[0];
}

// libvpx's defaults (good quality, speed 1, one thread) take ~20 s for five seconds of 640×480
// noise here; realtime mode at speed 8 takes ~1 s and the noise clip's size stays within a few
// percent. Other encoders keep FFmpeg's defaults, as `ffmpeg -c:v <codec>` would use.
void set_speed_options(const std::string& codec, AVDictionary** opts) {
  if (codec == "libvpx-vp9" || codec == "libvpx") {
    av().av_dict_set(opts, "deadline", "realtime", 0);
    av().av_dict_set(opts, "cpu-used", "8", 0);
  }
}

std::string container_name(const VideoEncodeSpec& spec) {
  return spec.format == "mp4" ? "MP4" : "WebM";
}

}  // namespace

std::string video_audio_codec(const VideoEncodeSpec& spec) {
  if (!spec.audio.codec.empty()) return spec.audio.codec;
  return spec.format == "mp4" ? "aac" : "libvorbis";
}

int video_audio_rate(const VideoEncodeSpec& spec) {
  const int want = spec.audio.sample_rate_hz;
  if (!ffmpeg_api()) return want;  // check_video_encoding reports the missing libraries
  const AVCodec* codec = av().avcodec_find_encoder_by_name(video_audio_codec(spec).c_str());
  if (codec == nullptr || codec->supported_samplerates == nullptr) return want;
  // An Opus stream decodes at 48 kHz whatever rate went in, and its file says so.
  if (codec->id == AV_CODEC_ID_OPUS) return 48000;
  int best = 0;
  for (const int* r = codec->supported_samplerates; *r != 0; ++r) {
    if (*r == want) return want;
    if (best == 0 || std::abs(*r - want) < std::abs(best - want)) best = *r;
  }
  return best != 0 ? best : want;
}

namespace detail {

void quiet_av_logging() {
  static std::once_flag once;
  std::call_once(once, [] { av().av_log_set_callback(&log_sink); });
}

std::string av_message(int err) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av().av_strerror(err, text, sizeof text);
  std::string out = text;
  if (!t_last_av_error.empty()) out += " (" + t_last_av_error + ")";
  t_last_av_error.clear();
  return out;
}

Result<const AVOutputFormat*> output_format(const VideoEncodeSpec& spec) {
  if (spec.format != "mp4" && spec.format != "webm")
    return bad(fmt::format("--video-format '{}': expected webm or mp4", spec.format));
  if (auto api = ffmpeg_api(); !api) return tl::unexpected(api.error());
  const AVOutputFormat* f = av().av_guess_format(spec.format.c_str(), nullptr, nullptr);
  if (f == nullptr)
    return bad(fmt::format("--video-format {}: this FFmpeg build has no {} muxer", spec.format,
                           spec.format));
  return f;
}

Result<CodecCtx> open_video_codec(const VideoEncodeSpec& spec, const AVOutputFormat* container) {
  quiet_av_logging();
  const AVCodec* codec = av().avcodec_find_encoder_by_name(spec.codec.c_str());
  if (codec == nullptr || codec->type != AVMEDIA_TYPE_VIDEO)
    return bad(fmt::format(
        "--video-codec '{}': this FFmpeg build has no such video encoder; use libvpx-vp9 "
        "(webm) or libx264 (mp4)",
        spec.codec));
  if (av().avformat_query_codec(container, codec->id, FF_COMPLIANCE_NORMAL) == 0)
    return bad(fmt::format("--video-codec {} with --video-format {}: {} does not carry {} video; "
                           "use {}",
                           spec.codec, spec.format, container_name(spec), codec->name,
                           spec.format == "webm" ? "--video-format mp4 or --video-codec libvpx-vp9"
                                                 : "--video-codec libx264"));
  // H.264/HEVC in 4:2:0 need even sizes; checked here because libx264 leaks on a failed open.
  const bool h26x = codec->id == AV_CODEC_ID_H264 || codec->id == AV_CODEC_ID_HEVC;
  if (h26x && pixel_format(codec) == AV_PIX_FMT_YUV420P && (spec.width % 2 || spec.height % 2))
    return bad(fmt::format("--video-codec {} takes even --video-width/--video-height (4:2:0 "
                           "chroma); got {}x{}",
                           spec.codec, spec.width, spec.height));
  CodecCtx ctx(av().avcodec_alloc_context3(codec));
  if (!ctx) return make_error(ErrorCode::kInternal, "video encoder: out of memory");
  ctx->width = spec.width;
  ctx->height = spec.height;
  ctx->time_base = AVRational{1, spec.fps};
  ctx->framerate = AVRational{spec.fps, 1};
  ctx->pix_fmt = pixel_format(codec);
  ctx->thread_count = 1;  // same bytes on every machine (x264 records its thread count)
  if ((container->flags & AVFMT_GLOBALHEADER) != 0) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* opts = nullptr;
  set_speed_options(spec.codec, &opts);
  const int err = av().avcodec_open2(ctx.get(), codec, &opts);
  av().av_dict_free(&opts);
  if (err < 0)
    return bad(fmt::format("--video-codec {} does not open at {}x{} pixels, {} fps: {}; check "
                           "--video-width/--video-height/--video-fps",
                           spec.codec, spec.width, spec.height, spec.fps, av_message(err)));
  return ctx;
}

Result<CodecCtx> open_audio_codec(const VideoEncodeSpec& spec, const AVOutputFormat* container) {
  quiet_av_logging();
  const std::string name = video_audio_codec(spec);
  const AVCodec* codec = av().avcodec_find_encoder_by_name(name.c_str());
  if (codec == nullptr || codec->type != AVMEDIA_TYPE_AUDIO)
    return bad(fmt::format(
        "--video-audio-codec '{}': this FFmpeg build has no such audio encoder; use aac, "
        "libvorbis or libopus",
        name));
  if (av().avformat_query_codec(container, codec->id, FF_COMPLIANCE_NORMAL) == 0)
    return bad(fmt::format("--video-audio-codec {} with --video-format {}: {} does not carry it; "
                           "use {}",
                           name, spec.format, container_name(spec),
                           spec.format == "webm" ? "libvorbis or libopus" : "aac"));
  const AVSampleFormat sample_fmt = sample_format(codec);
  if (sample_fmt == AV_SAMPLE_FMT_NONE)
    return bad(fmt::format("--video-audio-codec {}: its sample formats are not supported here; "
                           "use aac, libvorbis or libopus",
                           name));
  CodecCtx ctx(av().avcodec_alloc_context3(codec));
  if (!ctx) return make_error(ErrorCode::kInternal, "audio encoder: out of memory");
  ctx->sample_fmt = sample_fmt;
  ctx->sample_rate = video_audio_rate(spec);
  av().av_channel_layout_default(&ctx->ch_layout, spec.audio.channels);
  ctx->time_base = AVRational{1, ctx->sample_rate};
  ctx->thread_count = 1;
  ctx->flags |= AV_CODEC_FLAG_BITEXACT;
  if ((container->flags & AVFMT_GLOBALHEADER) != 0) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  const int err = av().avcodec_open2(ctx.get(), codec, nullptr);
  if (err < 0)
    return bad(fmt::format("--video-audio-codec {} does not open at {} Hz, {} channel(s): {}; "
                           "check --video-audio-sample-rate/--video-audio-num-channels",
                           name, ctx->sample_rate, spec.audio.channels, av_message(err)));
  return ctx;
}

}  // namespace detail
}  // namespace servebench::media
