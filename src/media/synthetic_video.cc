// The video half of MediaGenerator (media/synthetic_media.h): option checks and one clip per
// call, painted (media/video_frames.h) and encoded (media/video_encoder.h) from the run's seed.
#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "media/encoders.h"
#include "media/synthetic_media.h"
#include "media/video_encoder.h"
#include "media/video_frames.h"

namespace servebench::media {

namespace {

tl::unexpected<Error> bad(std::string msg) {
  return make_error(ErrorCode::kInvalidArgument, std::move(msg));
}

int audio_rate_hz(double rate) {
  return static_cast<int>(std::lround(rate <= 1000 ? rate * 1000 : rate));
}

VideoEncodeSpec encode_spec(const VideoOptions& o) {
  VideoEncodeSpec s;
  s.width = o.width;
  s.height = o.height;
  s.fps = o.fps;
  s.frames = o.frames();
  s.format = o.format;
  s.codec = o.codec;
  s.audio.channels = o.audio_channels;
  s.audio.sample_rate_hz = audio_rate_hz(o.audio_sample_rate);
  s.audio.codec = o.audio_codec;
  s.audio.depth_bits = o.audio_depth;
  return s;
}

}  // namespace

Status check_video_options(const VideoOptions& o) {
  if ((o.width > 0) != (o.height > 0))
    return bad("--video-width and --video-height go together: give both (pixels) or neither");
  if (o.width > 8192 || o.height > 8192)
    return bad("--video-width/--video-height: at most 8192 pixels");
  if (!parse_video_synth(o.synth_type))
    return bad(fmt::format("--video-synth-type '{}': expected moving_shapes, grid_clock or noise",
                           o.synth_type));
  if (o.format != "webm" && o.format != "mp4")
    return bad(fmt::format("--video-format '{}': expected webm or mp4", o.format));
  if (o.fps < 1 || o.fps > 240) return bad(fmt::format("--video-fps {}: expected 1 to 240", o.fps));
  if (!(o.duration_s >= 0) || o.duration_s > 600)
    return bad(fmt::format("--video-duration {}: expected 0 to 600 seconds", o.duration_s));
  if (o.audio_channels < 0 || o.audio_channels > 2)
    return bad(fmt::format("--video-audio-num-channels {}: expected 0 (no audio), 1 or 2",
                           o.audio_channels));
  if (o.audio_depth != 8 && o.audio_depth != 16 && o.audio_depth != 24 && o.audio_depth != 32)
    return bad(fmt::format("--video-audio-depth {}: expected 8, 16, 24 or 32 bits", o.audio_depth));
  const int hz = audio_rate_hz(o.audio_sample_rate);
  if (!(o.audio_sample_rate > 0) || hz < 8000 || hz > 96000)
    return bad(fmt::format("--video-audio-sample-rate {}: expected 8000 to 96000 Hz",
                           o.audio_sample_rate));
  if (!o.audio_codec.empty() && o.audio_channels == 0)
    return bad(fmt::format("--video-audio-codec {} needs an audio track: set "
                           "--video-audio-num-channels to 1 or 2",
                           o.audio_codec));
  if (!o.enabled()) return {};
  if (o.frames() < 1)
    return bad(fmt::format("--video-duration {} at --video-fps {} makes no frame; give at least "
                           "1/fps seconds",
                           o.duration_s, o.fps));
  return check_video_encoding(encode_spec(o));
}

Result<core::MediaPart> MediaGenerator::video() {
  const VideoOptions& o = options_.video;
  const VideoEncodeSpec spec = encode_spec(o);
  FramePainter painter(*parse_video_synth(o.synth_type), o.width, o.height, spec.frames, rng_());
  std::vector<float> audio;
  if (spec.audio.channels > 0) {
    // Gaussian noise for the whole clip, as the audio clips (synthetic_media.cc).
    const auto samples = static_cast<size_t>(o.duration_s * video_audio_rate(spec)) *
                         static_cast<size_t>(spec.audio.channels);
    audio.resize(samples);
    std::mt19937_64 audio_rng(rng_());
    std::normal_distribution<float> noise(0.0f, 0.3f);
    for (float& s : audio) s = std::clamp(noise(audio_rng), -1.0f, 1.0f);
  }
  auto bytes = encode_video(
      spec, [&painter](int index, uint8_t* rgb) { painter.paint(index, rgb); }, audio);
  if (!bytes) return tl::unexpected(bytes.error());
  core::MediaPart p;
  p.kind = core::MediaKind::kVideo;
  p.format = o.format;
  p.mime = "video/" + o.format;
  p.base64 = base64(*bytes);
  p.duration_s = static_cast<double>(spec.frames) / o.fps;
  return p;
}

}  // namespace servebench::media
