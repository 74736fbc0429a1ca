// Videos from MediaGenerator: one video_url part per --video-batch-size, a data URL of the
// encoded file whose decoded streams match the options; option checks name the flag.
#include <gtest/gtest.h>

#include "media/synthetic_media.h"
#include "unit/media/video_probe.h"

namespace servebench::media {
namespace {

MediaOptions video_only(int w, int h) {
  MediaOptions o;
  o.video.width = w;
  o.video.height = h;
  return o;
}

TEST(SyntheticVideo, AiperfDefaultsGiveA5SecondVp9WebmPerTurn) {
  MediaOptions o = video_only(128, 96);
  o.video.batch_size = 2;
  ASSERT_TRUE(check_media_options(o));
  MediaGenerator gen(o, 42);
  auto parts = gen.next_turn();
  ASSERT_TRUE(parts) << parts.error().message;
  ASSERT_EQ(parts->size(), 2u);
  const core::MediaPart& v = (*parts)[0];
  EXPECT_EQ(v.kind, core::MediaKind::kVideo);
  EXPECT_EQ(v.mime, "video/webm");
  EXPECT_EQ(v.format, "webm");
  EXPECT_DOUBLE_EQ(v.duration_s, 5.0);
  EXPECT_EQ(v.data_url().rfind("data:video/webm;base64,", 0), 0u);
  const auto p = testing::probe_video(testing::unbase64(v.base64));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.video_codec, "vp9");
  EXPECT_EQ(p.width, 128);
  EXPECT_EQ(p.height, 96);
  EXPECT_DOUBLE_EQ(p.fps, 4.0);
  EXPECT_EQ(p.video_frames, 20);
  EXPECT_NEAR(p.duration_s, 5.0, 0.01);
}

TEST(SyntheticVideo, Mp4WithAudioAndSameSeedSameBytes) {
  MediaOptions o = video_only(64, 64);
  o.video.format = "mp4";
  o.video.codec = "libx264";
  o.video.duration_s = 1.5;
  o.video.fps = 10;
  o.video.synth_type = "noise";
  o.video.audio_channels = 2;
  o.video.audio_sample_rate = 16;  // kHz, as AIPerf reads values <= 1000
  ASSERT_TRUE(check_media_options(o));
  auto a = MediaGenerator(o, 9).next_turn();
  auto b = MediaGenerator(o, 9).next_turn();
  auto c = MediaGenerator(o, 10).next_turn();
  ASSERT_TRUE(a && b && c);
  ASSERT_EQ(a->size(), 1u);
  EXPECT_EQ((*a)[0].base64, (*b)[0].base64);
  EXPECT_NE((*a)[0].base64, (*c)[0].base64);
  EXPECT_EQ((*a)[0].mime, "video/mp4");
  const auto p = testing::probe_video(testing::unbase64((*a)[0].base64));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.video_codec, "h264");
  EXPECT_EQ(p.video_frames, 15);
  EXPECT_DOUBLE_EQ(p.fps, 10.0);
  EXPECT_EQ(p.audio_codec, "aac");
  EXPECT_EQ(p.sample_rate, 16000);
  EXPECT_EQ(p.channels, 2);
}

TEST(SyntheticVideo, ImagesAudioThenVideosInATurn) {
  MediaOptions o = video_only(32, 32);
  o.video.duration_s = 0.5;
  o.image.width_mean = o.image.height_mean = 8;
  o.audio.length_mean_s = 0.1;
  auto parts = MediaGenerator(o, 1).next_turn();
  ASSERT_TRUE(parts) << parts.error().message;
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0].kind, core::MediaKind::kImage);
  EXPECT_EQ((*parts)[1].kind, core::MediaKind::kAudio);
  EXPECT_EQ((*parts)[2].kind, core::MediaKind::kVideo);
}

TEST(SyntheticVideo, BadOptionsNameTheirFlag) {
  struct Case {
    void (*set)(VideoOptions*);
    const char* flag;
  };
  const Case cases[] = {
      {[](VideoOptions* v) { v->height = 0; }, "--video-width and --video-height"},
      {[](VideoOptions* v) { v->synth_type = "stripes"; }, "--video-synth-type 'stripes'"},
      {[](VideoOptions* v) { v->format = "avi"; }, "--video-format 'avi'"},
      {[](VideoOptions* v) { v->duration_s = 0.1; }, "--video-duration 0.1 at --video-fps 4"},
      {[](VideoOptions* v) { v->audio_channels = 3; }, "--video-audio-num-channels 3"},
      {[](VideoOptions* v) { v->audio_depth = 12; }, "--video-audio-depth 12"},
      {[](VideoOptions* v) { v->audio_sample_rate = 100000; }, "--video-audio-sample-rate"},
      {[](VideoOptions* v) { v->audio_codec = "aac"; }, "--video-audio-codec aac needs"},
      {[](VideoOptions* v) { v->codec = "libx264"; }, "--video-format mp4"},
      {[](VideoOptions* v) { v->width = 9000; }, "at most 8192"},
  };
  for (const Case& c : cases) {
    MediaOptions o = video_only(64, 48);
    c.set(&o.video);
    const Status st = check_media_options(o);
    ASSERT_FALSE(st) << c.flag;
    EXPECT_NE(st.error().message.find(c.flag), std::string::npos) << st.error().message;
    EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace servebench::media
