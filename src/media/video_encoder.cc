#include "media/video_encoder.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "media/ffmpeg_api.h"
#include "media/video_codecs.h"
#include "media/video_memio.h"

namespace servebench::media {

namespace {

using detail::av_message;
using detail::CodecCtx;

struct FormatFree {
  void operator()(AVFormatContext* f) const { av().avformat_free_context(f); }
};
struct FrameFree {
  void operator()(AVFrame* f) const { av().av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av().av_packet_free(&p); }
};
struct SwsFree {
  void operator()(SwsContext* s) const { av().sws_freeContext(s); }
};

tl::unexpected<Error> failed(const char* what, int err) {
  return make_error(ErrorCode::kInternal,
                    fmt::format("video encoder: {}: {}", what, av_message(err)));
}

// Writes `n` samples per channel from `audio` (interleaved, starting at frame `first`) into the
// encoder's frame, quantized to `depth` bits; samples past the end are silence.
void fill_audio(AVFrame* f, const std::vector<float>& audio, size_t first, int channels,
                int depth) {
  const double q = std::ldexp(1.0, depth - 1) - 1;
  const size_t frames_in = audio.size() / static_cast<size_t>(channels);
  const auto fmt = static_cast<AVSampleFormat>(f->format);
  const bool planar = av().av_sample_fmt_is_planar(fmt) != 0;
  for (int s = 0; s < f->nb_samples; ++s) {
    for (int c = 0; c < channels; ++c) {
      const size_t at = first + static_cast<size_t>(s);
      const double x = at < frames_in ? std::clamp<double>(audio[at * channels + c], -1, 1) : 0;
      const double v = std::round(x * q) / q;
      const int plane = planar ? c : 0;
      const int index = planar ? s : s * channels + c;
      if (fmt == AV_SAMPLE_FMT_FLTP || fmt == AV_SAMPLE_FMT_FLT)
        reinterpret_cast<float*>(f->data[plane])[index] = static_cast<float>(v);
      else if (fmt == AV_SAMPLE_FMT_S16P || fmt == AV_SAMPLE_FMT_S16)
        reinterpret_cast<int16_t*>(f->data[plane])[index] =
            static_cast<int16_t>(std::lround(v * 32767));
      else
        reinterpret_cast<int32_t*>(f->data[plane])[index] =
            static_cast<int32_t>(std::llround(v * 2147483647.0));
    }
  }
}

// One encode: codecs and streams opened in the constructor's order by open(), then frames
// interleaved by time, then the trailer.
class Muxer {
 public:
  explicit Muxer(const VideoEncodeSpec& spec) : spec_(spec) {}

  Status open();
  Result<std::string> run(const PaintFrame& paint, const std::vector<float>& audio);

 private:
  Status add_stream(AVCodecContext* ctx, AVStream** st);
  Status video_frame(int index, const PaintFrame& paint);
  Status audio_frame(const std::vector<float>& audio);
  Status send(AVCodecContext* ctx, AVStream* st, AVFrame* frame);

  const VideoEncodeSpec& spec_;
  detail::MemoryFile file_;
  std::unique_ptr<AVFormatContext, FormatFree> fmt_;
  CodecCtx vctx_, actx_;
  AVStream* vst_ = nullptr;
  AVStream* ast_ = nullptr;
  std::unique_ptr<SwsContext, SwsFree> sws_;
  std::unique_ptr<AVFrame, FrameFree> vframe_, aframe_;
  std::unique_ptr<AVPacket, PacketFree> pkt_{av().av_packet_alloc()};
  std::vector<uint8_t> rgb_;
  size_t audio_pos_ = 0;  // samples per channel sent
};

Status Muxer::open() {
  auto container = detail::output_format(spec_);
  if (!container) return tl::unexpected(container.error());
  AVFormatContext* raw = nullptr;
  int err = av().avformat_alloc_output_context2(&raw, *container, nullptr, nullptr);
  if (err < 0) return failed("muxer", err);
  fmt_.reset(raw);
  fmt_->flags |= AVFMT_FLAG_BITEXACT;  // no random track ids, no version strings
  if (auto st = file_.attach(fmt_.get()); !st) return st;
  auto v = detail::open_video_codec(spec_, *container);
  if (!v) return tl::unexpected(v.error());
  vctx_ = std::move(*v);
  if (auto st = add_stream(vctx_.get(), &vst_); !st) return st;
  if (spec_.audio.channels > 0) {
    auto a = detail::open_audio_codec(spec_, *container);
    if (!a) return tl::unexpected(a.error());
    actx_ = std::move(*a);
    if (auto st = add_stream(actx_.get(), &ast_); !st) return st;
  }
  AVDictionary* options = nullptr;
  if (spec_.format == "mp4") av().av_dict_set(&options, "movflags", "faststart", 0);
  err = av().avformat_write_header(fmt_.get(), &options);
  av().av_dict_free(&options);
  if (err < 0) return failed("container header", err);
  return {};
}

Status Muxer::add_stream(AVCodecContext* ctx, AVStream** st) {
  *st = av().avformat_new_stream(fmt_.get(), nullptr);
  if (*st == nullptr) return make_error(ErrorCode::kInternal, "video muxer: out of memory");
  const int err = av().avcodec_parameters_from_context((*st)->codecpar, ctx);
  if (err < 0) return failed("stream parameters", err);
  (*st)->time_base = ctx->time_base;
  if (ctx->codec_type == AVMEDIA_TYPE_VIDEO) (*st)->avg_frame_rate = ctx->framerate;
  return {};
}

Status Muxer::send(AVCodecContext* ctx, AVStream* st, AVFrame* frame) {
  int err = av().avcodec_send_frame(ctx, frame);
  if (err < 0) return failed("encode", err);
  for (;;) {
    err = av().avcodec_receive_packet(ctx, pkt_.get());
    if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return {};
    if (err < 0) return failed("encode", err);
    if (pkt_->duration == 0 && ctx->codec_type == AVMEDIA_TYPE_VIDEO) pkt_->duration = 1;
    av().av_packet_rescale_ts(pkt_.get(), ctx->time_base, st->time_base);
    pkt_->stream_index = st->index;
    err = av().av_interleaved_write_frame(fmt_.get(), pkt_.get());
    if (err < 0) return failed("mux", err);
  }
}

Status Muxer::video_frame(int index, const PaintFrame& paint) {
  const int w = spec_.width, h = spec_.height;
  if (!vframe_) {
    vframe_.reset(av().av_frame_alloc());
    if (!vframe_) return make_error(ErrorCode::kInternal, "video encoder: out of memory");
    vframe_->format = vctx_->pix_fmt;
    vframe_->width = w;
    vframe_->height = h;
    if (int err = av().av_frame_get_buffer(vframe_.get(), 0); err < 0) return failed("frame", err);
    // Bit-exact, accurately rounded conversion: the same pixels on every CPU.
    sws_.reset(av().sws_getContext(w, h, AV_PIX_FMT_RGB24, w, h, vctx_->pix_fmt,
                              SWS_BICUBIC | SWS_BITEXACT | SWS_ACCURATE_RND, nullptr, nullptr,
                              nullptr));
    if (!sws_) return make_error(ErrorCode::kInternal, "video encoder: no RGB conversion");
    // libswscale's SIMD loads read up to 16 bytes past the last pixel: padding, not pixels.
    rgb_.resize(static_cast<size_t>(w) * h * 3 + 64);
  }
  if (int err = av().av_frame_make_writable(vframe_.get()); err < 0) return failed("frame", err);
  paint(index, rgb_.data());
  const uint8_t* src[1] = {rgb_.data()};
  const int stride[1] = {3 * w};
  av().sws_scale(sws_.get(), src, stride, 0, h, vframe_->data, vframe_->linesize);
  vframe_->pts = index;
  return send(vctx_.get(), vst_, vframe_.get());
}

Status Muxer::audio_frame(const std::vector<float>& audio) {
  const int channels = spec_.audio.channels;
  const size_t total = audio.size() / static_cast<size_t>(channels);
  const bool variable = (actx_->codec->capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE) != 0;
  const int frame_size = actx_->frame_size > 0 && !variable ? actx_->frame_size : 1024;
  const bool small_last = (actx_->codec->capabilities & AV_CODEC_CAP_SMALL_LAST_FRAME) != 0;
  int n = frame_size;
  if (small_last || variable)
    n = static_cast<int>(std::min<size_t>(static_cast<size_t>(frame_size), total - audio_pos_));
  aframe_.reset(av().av_frame_alloc());
  if (!aframe_) return make_error(ErrorCode::kInternal, "audio encoder: out of memory");
  aframe_->format = actx_->sample_fmt;
  aframe_->sample_rate = actx_->sample_rate;
  aframe_->nb_samples = n;
  if (int err = av().av_channel_layout_copy(&aframe_->ch_layout, &actx_->ch_layout); err < 0)
    return failed("audio frame", err);
  if (int err = av().av_frame_get_buffer(aframe_.get(), 0); err < 0) return failed("audio frame", err);
  fill_audio(aframe_.get(), audio, audio_pos_, channels, spec_.audio.depth_bits);
  aframe_->pts = static_cast<int64_t>(audio_pos_);
  audio_pos_ += static_cast<size_t>(n);
  return send(actx_.get(), ast_, aframe_.get());
}

Result<std::string> Muxer::run(const PaintFrame& paint, const std::vector<float>& audio) {
  if (!pkt_) return make_error(ErrorCode::kInternal, "video encoder: out of memory");
  if (auto st = open(); !st) return tl::unexpected(st.error());
  const size_t audio_total = actx_ ? audio.size() / static_cast<size_t>(spec_.audio.channels) : 0;
  const auto rate = static_cast<size_t>(actx_ ? actx_->sample_rate : 1);
  const auto fps = static_cast<size_t>(spec_.fps);
  // Interleave by time: the stream whose next frame starts earlier goes first.
  for (int v = 0; v < spec_.frames || audio_pos_ < audio_total;) {
    const bool audio_next =
        audio_pos_ < audio_total &&
        (v >= spec_.frames || audio_pos_ * fps <= static_cast<size_t>(v) * rate);
    Status st = audio_next ? audio_frame(audio) : video_frame(v++, paint);
    if (!st) return tl::unexpected(st.error());
  }
  if (auto st = send(vctx_.get(), vst_, nullptr); !st) return tl::unexpected(st.error());
  if (actx_) {
    if (auto st = send(actx_.get(), ast_, nullptr); !st) return tl::unexpected(st.error());
  }
  if (int err = av().av_write_trailer(fmt_.get()); err < 0) return failed("container trailer", err);
  return file_.take();
}

}  // namespace

Status check_video_encoding(const VideoEncodeSpec& spec) {
  auto container = detail::output_format(spec);
  if (!container) return tl::unexpected(container.error());
  auto v = detail::open_video_codec(spec, *container);
  if (!v) return tl::unexpected(v.error());
  if (spec.audio.channels > 0) {
    auto a = detail::open_audio_codec(spec, *container);
    if (!a) return tl::unexpected(a.error());
  }
  return {};
}

Result<std::string> encode_video(const VideoEncodeSpec& spec, const PaintFrame& paint,
                                 const std::vector<float>& audio) {
  if (spec.frames < 1) return make_error(ErrorCode::kInvalidArgument, "video: no frames to encode");
  if (spec.audio.channels > 0 && audio.size() < static_cast<size_t>(spec.audio.channels))
    return make_error(ErrorCode::kInvalidArgument, "video: an audio track needs samples");
  if (auto api = ffmpeg_api(); !api) return tl::unexpected(api.error());
  Muxer muxer(spec);
  return muxer.run(paint, audio);
}

}  // namespace servebench::media
