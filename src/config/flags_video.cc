// Video input flags (config/flag_table.h): AIPerf's --video-* group. They shape the synthetic
// clips of each turn (media/synthetic_media.h, media/video_encoder.h); video is on once both
// --video-width and --video-height are given. Values are checked with the other media options
// at validation (media::check_video_options), including that the encoders open.
#include "config/video_options.h"
#include "config/flag_kinds.h"

#include <algorithm>

namespace servebench::config {

using namespace flags;  // NOLINT: the builders read as a table

void add_video_flags(std::vector<FlagSpec>* out) {
  out->push_back(count_flag("--video-batch-size,--batch-size-video", "--video-batch-size",
                            "Videos per turn (0 = none)", &C::video_batch_size, 0,
                            "/input/video/batch_size"));
  out->push_back(double_flag("--video-duration", "--video-duration",
                             "Length of each synthetic clip in seconds (frames = duration x fps)",
                             &C::video_duration_s, "seconds", Bound::kNonNegative,
                             "/input/video/duration"));
  out->push_back(count_flag("--video-fps", "--video-fps", "Frames per second of the clips",
                            &C::video_fps, 1, "/input/video/fps"));
  out->push_back(count_flag("--video-width", "--video-width",
                            "Frame width in pixels (with --video-height; turns video on)",
                            &C::video_width, 1, "/input/video/width"));
  out->push_back(count_flag("--video-height", "--video-height",
                            "Frame height in pixels (with --video-width)", &C::video_height, 1,
                            "/input/video/height"));
  out->push_back(string_flag("--video-synth-type",
                             "Frame content: moving_shapes, grid_clock or noise",
                             &C::video_synth_type, false, "/input/video/synth_type"));
  out->push_back(string_flag("--video-format", "Container: webm or mp4", &C::video_format, false,
                             "/input/video/format"));
  out->push_back(string_flag("--video-codec",
                             "FFmpeg video encoder: libvpx-vp9 (webm), libx264 (mp4), ...",
                             &C::video_codec, false, "/input/video/codec"));
  out->push_back(double_flag("--video-audio-sample-rate", "--video-audio-sample-rate",
                             "Sample rate of the clips' audio track in Hz (8000-96000)",
                             &C::video_audio_sample_rate, "a sample rate in Hz", Bound::kPositive,
                             "/input/video/audio/sample_rate"));
  out->push_back(count_flag("--video-audio-num-channels", "--video-audio-num-channels",
                            "Audio track channels: 0 (none), 1 or 2",
                            &C::video_audio_num_channels, 0, "/input/video/audio/channels"));
  out->push_back(string_flag("--video-audio-codec",
                             "Audio track encoder: aac, libvorbis or libopus (default by format)",
                             &C::video_audio_codec, true, "/input/video/audio/codec"));
  out->push_back(count_flag("--video-audio-depth", "--video-audio-depth",
                            "Audio track bit depth: 8, 16, 24 or 32", &C::video_audio_depth, 1,
                            "/input/video/audio/depth"));
}

namespace {

// Past any bound check_video_options accepts, so a huge value still fails there as itself.
int clamp_int(int64_t v) { return static_cast<int>(std::min<int64_t>(v, 1'000'000'000)); }

}  // namespace

media::VideoOptions video_options(const BenchmarkConfig& c) {
  media::VideoOptions o;
  o.width = clamp_int(c.video_width);
  o.height = clamp_int(c.video_height);
  o.batch_size = clamp_int(c.video_batch_size);
  o.duration_s = c.video_duration_s;
  o.fps = clamp_int(c.video_fps);
  o.synth_type = c.video_synth_type;
  o.format = c.video_format;
  o.codec = c.video_codec;
  o.audio_sample_rate = c.video_audio_sample_rate;
  o.audio_channels = clamp_int(c.video_audio_num_channels);
  o.audio_codec = c.video_audio_codec;
  o.audio_depth = clamp_int(c.video_audio_depth);
  return o;
}

}  // namespace servebench::config
