// Synthetic video end to end: `servebench profile --video-*` against servebench-mock. Every
// video of inputs.json is decoded with libavformat/libavcodec and compared with the flags; the
// mock's request record shows the video parts on the wire; the same seed gives the same bytes;
// bad video flags are one-line usage errors; FFmpeg is opened only when a video is made.
#include "integration/profile/harness.h"
#include "unit/media/video_probe.h"

namespace servebench::itest {
namespace {

std::vector<std::string> video_args(const std::string& url, std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "mock-model", "-u", url, "--endpoint-type", "chat",
                                "--tokenizer", "simple", "--isl", "16", "--osl", "4",
                                "--request-count", "4", "--concurrency", "2",
                                "--num-dataset-entries", "4", "--random-seed", "5"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// The data URLs of every video_url part of inputs.json.
std::vector<std::string> video_urls(const std::string& inputs_json) {
  std::vector<std::string> out;
  const Json j = Json::parse(inputs_json);
  for (const auto& s : j["data"])
    for (const auto& body : s["payloads"])
      for (const auto& part : body["messages"].back()["content"])
        if (part["type"] == "video_url") out.push_back(part["video_url"]["url"].get<std::string>());
  return out;
}

TEST(ProfileVideo, Mp4VideosDecodeAndReachTheServer) {
  const std::string dir = make_temp_dir("video");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, video_args(mock.url(), {"--video-width", "64", "--video-height", "48",
                                                    "--video-duration", "1", "--video-fps", "6",
                                                    "--video-batch-size", "2", "--video-format",
                                                    "mp4", "--video-codec", "libx264",
                                                    "--video-synth-type", "grid_clock",
                                                    "--video-audio-num-channels", "1"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto urls = video_urls(read_file(r.artifact_dir + "/inputs.json"));
  ASSERT_EQ(urls.size(), 2u * 4u) << "two videos in each of the four requests";
  for (const auto& url : urls) {
    const std::string head = "data:video/mp4;base64,";
    ASSERT_EQ(url.rfind(head, 0), 0u) << url.substr(0, 40);
    const auto p = media::testing::probe_video(media::testing::unbase64(url.substr(head.size())));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.video_codec, "h264");
    EXPECT_EQ(p.width, 64);
    EXPECT_EQ(p.height, 48);
    EXPECT_DOUBLE_EQ(p.fps, 6.0);
    EXPECT_EQ(p.video_frames, 6);
    EXPECT_NEAR(p.duration_s, 1.0, 0.05);
    EXPECT_EQ(p.audio_codec, "aac");
    EXPECT_EQ(p.sample_rate, 44100);
    EXPECT_EQ(p.channels, 1);
  }
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 4u);
  for (const auto& s : sent) {
    ASSERT_TRUE(s.contains("media")) << s.dump();
    ASSERT_EQ(s["media"].size(), 2u);
    for (const auto& m : s["media"]) {
      EXPECT_EQ(m["kind"], "video");
      EXPECT_EQ(m["format"], "mp4");
      EXPECT_GT(m["bytes"].get<int64_t>(), 1000);
    }
  }
}

TEST(ProfileVideo, DefaultWebmSameSeedSameBytes) {
  std::string inputs[2];
  for (auto& in : inputs) {
    const std::string dir = make_temp_dir("video-seed");
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1"}));
    auto r = run_profile(dir, video_args(mock.url(), {"--video-width", "48", "--video-height",
                                                      "32", "--video-synth-type", "noise"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    in = read_file(r.artifact_dir + "/inputs.json");
  }
  const auto urls = video_urls(inputs[0]);
  ASSERT_EQ(urls.size(), 4u);
  const std::string head = "data:video/webm;base64,";
  ASSERT_EQ(urls[0].rfind(head, 0), 0u);
  const auto p = media::testing::probe_video(media::testing::unbase64(urls[0].substr(head.size())));
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.video_codec, "vp9") << "AIPerf's defaults: webm, libvpx-vp9, 5 s at 4 fps";
  EXPECT_EQ(p.video_frames, 20);
  EXPECT_NEAR(p.duration_s, 5.0, 0.01);
  EXPECT_EQ(inputs[0], inputs[1]) << "the same seed must give byte-identical videos";
}

TEST(ProfileVideo, BadVideoFlagsAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("video-bad");
  const std::vector<std::string> size = {"--video-width", "64", "--video-height", "48"};
  auto with_size = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), size.begin(), size.end());
    return extra;
  };
  const std::vector<std::vector<std::string>> cases = {
      {"--video-width", "64"},
      with_size({"--video-synth-type", "stripes"}),
      with_size({"--video-format", "avi"}),
      with_size({"--video-codec", "libx264"}),  // H.264 in the default webm
      with_size({"--video-codec", "no-such-encoder"}),
      with_size({"--video-audio-codec", "aac"}),  // no audio track
      with_size({"--video-audio-depth", "12", "--video-audio-num-channels", "1"}),
      with_size({"--video-duration", "0.1"}),
      with_size({"--video-fps", "0"}),
      with_size({"embeddings"}),  // as --endpoint-type (a type without media)
      {"--video-width", "65", "--video-height", "48", "--video-format", "mp4", "--video-codec",
       "libx264"},
  };
  for (const auto& extra : cases) {
    auto args = video_args("http://127.0.0.1:9", extra);
    if (extra.back() == "embeddings") {  // a type without media, in place of chat
      args.pop_back();
      ASSERT_EQ(args[4], "--endpoint-type");
      args[5] = "embeddings";
    }
    auto r = run_profile(dir, args, 10);
    EXPECT_EQ(r.exit_code, 2) << extra.back() << ": " << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("--video"), std::string::npos) << r.stderr_text;
    EXPECT_LT(r.wall_s, 2.0);
  }
}

// FFmpeg and the ~130 libraries it pulls in are not loaded at start-up (media/ffmpeg_api.h):
// the dynamic linker's list for the binary (what ldd prints) has libc and no libavcodec. The
// tests above make videos, so the dlopen path works.
TEST(ProfileVideo, FfmpegIsNotLoadedAtStartUp) {
  const std::string dir = make_temp_dir("video-startup");
  const Proc p = run_process(dir, {"/usr/bin/env", "LD_TRACE_LOADED_OBJECTS=1", bin_dir() + "/servebench"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.out.find("libc.so"), std::string::npos) << p.out;
  EXPECT_EQ(p.out.find("libavcodec"), std::string::npos) << p.out;
  EXPECT_EQ(p.out.find("libavformat"), std::string::npos) << p.out;
}

// The file this process mapped for `lib` (the test links FFmpeg to decode), or "".
std::string mapped_library(const std::string& lib) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    const size_t at = line.find('/');
    if (at != std::string::npos && line.find(lib, at) != std::string::npos) return line.substr(at);
  }
  return "";
}

// Without libavcodec (hidden in a private mount namespace: needs root, else skipped), a video
// run is a one-line usage error naming the packages; nothing is sent.
TEST(ProfileVideo, MissingFfmpegIsAOneLineErrorNamingThePackages) {
  const std::string lib = mapped_library("libavcodec.so");
  ASSERT_FALSE(lib.empty());
  const std::string dir = make_temp_dir("video-noffmpeg");
  if (run_process(dir, {"/usr/bin/unshare", "-m", "/bin/true"}).exit_code != 0)
    GTEST_SKIP() << "no private mount namespace here (needs root)";
  std::string cmd = "mount --bind /dev/null '" + lib + "' && exec '" + bin_dir() + "/servebench' profile";
  for (const auto& a : video_args("http://127.0.0.1:9", {"--video-width", "64", "--video-height", "48"}))
    cmd += " '" + a + "'";
  cmd += " --artifact-dir '" + dir + "/art' -q";
  const Proc p = run_process(dir, {"/usr/bin/unshare", "-m", "/bin/sh", "-c", cmd});
  EXPECT_EQ(p.exit_code, 2) << p.err;
  EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
  EXPECT_NE(p.err.find("libavcodec59"), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("video inputs need FFmpeg"), std::string::npos) << p.err;
}

}  // namespace
}  // namespace servebench::itest
