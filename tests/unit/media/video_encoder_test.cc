// The video encoder: every file is decoded back with libavformat/libavcodec and its container,
// codec, size, frame rate, frame count, duration and audio track compared with the spec.
#include <gtest/gtest.h>

#include <vector>

#include "media/video_encoder.h"
#include "media/video_frames.h"
#include "unit/media/video_probe.h"

namespace servebench::media {
namespace {

using testing::probe_video;

VideoEncodeSpec spec_of(std::string format, std::string codec, int w, int h, int fps, int frames) {
  VideoEncodeSpec s;
  s.format = std::move(format);
  s.codec = std::move(codec);
  s.width = w;
  s.height = h;
  s.fps = fps;
  s.frames = frames;
  return s;
}

Result<std::string> encode(const VideoEncodeSpec& s, VideoSynth synth = VideoSynth::kMovingShapes,
                           uint64_t seed = 1) {
  FramePainter painter(synth, s.width, s.height, s.frames, seed);
  std::vector<float> audio;
  if (s.audio.channels > 0) {
    const double seconds = static_cast<double>(s.frames) / s.fps;
    audio.assign(static_cast<size_t>(seconds * video_audio_rate(s)) * s.audio.channels, 0.0f);
    for (size_t i = 0; i < audio.size(); ++i) audio[i] = (i % 50) / 50.0f - 0.5f;
  }
  return encode_video(s, [&](int i, uint8_t* rgb) { painter.paint(i, rgb); }, audio);
}

TEST(VideoEncoder, WebmVp9AsAiperfDefaults) {
  // AIPerf's defaults: webm, libvpx-vp9, 4 fps, 5 s (20 frames).
  const auto s = spec_of("webm", "libvpx-vp9", 160, 120, 4, 20);
  ASSERT_TRUE(check_video_encoding(s));
  auto bytes = encode(s);
  ASSERT_TRUE(bytes) << bytes.error().message;
  EXPECT_EQ(bytes->compare(0, 4, "\x1a\x45\xdf\xa3"), 0) << "EBML magic";
  const auto p = probe_video(*bytes);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NE(p.container.find("webm"), std::string::npos) << p.container;
  EXPECT_EQ(p.video_codec, "vp9");
  EXPECT_EQ(p.width, 160);
  EXPECT_EQ(p.height, 120);
  EXPECT_DOUBLE_EQ(p.fps, 4.0);
  EXPECT_EQ(p.video_frames, 20);
  EXPECT_NEAR(p.duration_s, 5.0, 0.01);
  EXPECT_EQ(p.audio_codec, "");
  EXPECT_LT(p.first_frame_y_center, 40) << "black background at the centre of frame 0";
}

TEST(VideoEncoder, Mp4H264MovesTheMoovAtomFirst) {
  const auto s = spec_of("mp4", "libx264", 320, 240, 8, 12);
  auto bytes = encode(s, VideoSynth::kGridClock);
  ASSERT_TRUE(bytes) << bytes.error().message;
  EXPECT_EQ(bytes->compare(4, 4, "ftyp"), 0);
  const size_t moov = bytes->find("moov"), mdat = bytes->find("mdat");
  ASSERT_NE(moov, std::string::npos);
  EXPECT_LT(moov, mdat) << "faststart: the index before the media data";
  const auto p = probe_video(*bytes);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_NE(p.container.find("mp4"), std::string::npos) << p.container;
  EXPECT_EQ(p.video_codec, "h264");
  EXPECT_EQ(p.width, 320);
  EXPECT_EQ(p.height, 240);
  EXPECT_DOUBLE_EQ(p.fps, 8.0);
  EXPECT_EQ(p.video_frames, 12);
  EXPECT_NEAR(p.duration_s, 1.5, 0.01);
  EXPECT_GT(p.first_frame_y_center, 60) << "the clock's red centre dot";
}

TEST(VideoEncoder, AudioTracksPerCodec) {
  struct Case {
    std::string format, codec;
    int channels, rate;
    std::string want_codec;
    int want_rate;
  };
  for (const Case& c : std::vector<Case>{{"mp4", "", 2, 44100, "aac", 44100},
                                         {"webm", "", 1, 22050, "vorbis", 22050},
                                         {"webm", "libopus", 2, 44100, "opus", 48000},
                                         {"mp4", "libopus", 1, 16000, "opus", 48000}}) {
    SCOPED_TRACE(c.format + " " + c.want_codec);
    auto s = spec_of(c.format, c.format == "mp4" ? "libx264" : "libvpx-vp9", 64, 48, 4, 8);
    s.audio.channels = c.channels;
    s.audio.sample_rate_hz = c.rate;
    s.audio.codec = c.codec;
    EXPECT_EQ(video_audio_rate(s), c.want_rate);
    ASSERT_TRUE(check_video_encoding(s));
    auto bytes = encode(s);
    ASSERT_TRUE(bytes) << bytes.error().message;
    const auto p = probe_video(*bytes);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.audio_codec, c.want_codec);
    EXPECT_EQ(p.sample_rate, c.want_rate);
    EXPECT_EQ(p.channels, c.channels);
    EXPECT_EQ(p.video_frames, 8);
    EXPECT_NEAR(p.duration_s, 2.0, 0.05);
  }
}

TEST(VideoEncoder, SameFramesSameBytes) {
  auto s = spec_of("webm", "libvpx-vp9", 96, 64, 4, 6);
  s.audio.channels = 1;
  auto a = encode(s, VideoSynth::kNoise, 5), b = encode(s, VideoSynth::kNoise, 5);
  auto c = encode(s, VideoSynth::kNoise, 6);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*a, *b) << "bit-exact muxer, single-threaded encoders";
  EXPECT_NE(*a, *c);
  const auto mp4 = spec_of("mp4", "libx264", 96, 64, 4, 6);
  auto m1 = encode(mp4), m2 = encode(mp4);
  ASSERT_TRUE(m1 && m2);
  EXPECT_EQ(*m1, *m2);
}

TEST(VideoEncoder, BadSpecsAreOneLineErrorsNamingTheFlag) {
  struct Case {
    VideoEncodeSpec spec;
    std::string flag;
  };
  auto odd = spec_of("mp4", "libx264", 65, 48, 4, 4);
  auto x264_webm = spec_of("webm", "libx264", 64, 48, 4, 4);
  auto unknown = spec_of("webm", "no-such-codec", 64, 48, 4, 4);
  auto audio_as_video = spec_of("webm", "aac", 64, 48, 4, 4);
  auto aac_webm = spec_of("webm", "libvpx-vp9", 64, 48, 4, 4);
  aac_webm.audio = {1, 44100, "aac", 16};
  auto avi = spec_of("avi", "libx264", 64, 48, 4, 4);
  for (const Case& c : std::vector<Case>{{odd, "--video-codec libx264 takes even"},
                                         {x264_webm, "--video-format mp4"},
                                         {unknown, "--video-codec 'no-such-codec'"},
                                         {audio_as_video, "--video-codec 'aac'"},
                                         {aac_webm, "--video-audio-codec aac with --video-format"},
                                         {avi, "--video-format 'avi'"}}) {
    const Status st = check_video_encoding(c.spec);
    ASSERT_FALSE(st) << c.flag;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(st.error().message.find(c.flag), std::string::npos) << st.error().message;
    EXPECT_EQ(st.error().message.find('\n'), std::string::npos) << st.error().message;
  }
  EXPECT_NE(check_video_encoding(odd).error().message.find("got 65x48"), std::string::npos);
}

}  // namespace
}  // namespace servebench::media
