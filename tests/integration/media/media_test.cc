// Synthetic images and audio end to end: `servebench profile --image-* --audio-*` against
// servebench-mock. Every image and clip of inputs.json is decoded by tools servebench does not
// share code with (Debian's python3-PIL for images, ffprobe for audio) and compared with the
// flags; the mock's request record shows the same parts on the wire; the same seed gives the
// same bytes; bad media flags are one-line usage errors.
#include <fcntl.h>

#include <cstdlib>
#include <map>
#include <set>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {


bool have_tools() {
  return fs::exists("/usr/bin/python3") && fs::exists("/usr/bin/ffprobe") &&
         std::system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0;
}

// Writes every media part of inputs.json to files and prints one line per part:
//   image <format> <width> <height>        (PIL)
//   audio <format> <file>                  (ffprobe reads the file afterwards)
const char* kDecode = R"PY(
import base64, io, json, sys
from PIL import Image
j = json.load(open(sys.argv[1]))
n = 0
for s in j["data"]:
    for body in s["payloads"]:
        for part in body["messages"][-1]["content"]:
            t = part["type"]
            if t == "image_url":
                head, b64 = part["image_url"]["url"].split(",", 1)
                im = Image.open(io.BytesIO(base64.b64decode(b64)))
                im.load()
                print("image", im.format.lower(), im.size[0], im.size[1], head)
            elif t == "input_audio":
                n += 1
                path = "%s/clip%d.%s" % (sys.argv[2], n, part["input_audio"]["format"])
                open(path, "wb").write(base64.b64decode(part["input_audio"]["data"]))
                print("audio", part["input_audio"]["format"], path)
)PY";

std::vector<std::string> media_args(const std::string& url, std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "mock-model", "-u", url, "--endpoint-type", "chat",
                                "--tokenizer", "simple", "--isl", "16", "--osl", "4",
                                "--request-count", "6", "--concurrency", "2",
                                "--num-dataset-entries", "6", "--random-seed", "11"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(ProfileMedia, ImagesAndAudioDecodeWithIndependentTools) {
  if (!have_tools()) GTEST_SKIP() << "needs python3-pil and ffprobe (scripts/setup.sh)";
  const std::string dir = make_temp_dir("media");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "2", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, media_args(mock.url(), {"--image-width-mean", "40", "--image-height-mean",
                                                    "30", "--image-batch-size", "2", "--image-format",
                                                    "random", "--audio-length-mean", "0.25",
                                                    "--audio-sample-rates", "16,22.05",
                                                    "--audio-depths", "16,24"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::ofstream(dir + "/decode.py") << kDecode;
  const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/decode.py", r.artifact_dir + "/inputs.json", dir});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  std::istringstream lines(p.out);
  std::string kind;
  std::map<std::string, int> formats;
  int images = 0, audios = 0;
  while (lines >> kind) {
    if (kind == "image") {
      std::string format, head;
      int w = 0, h = 0;
      lines >> format >> w >> h >> head;
      EXPECT_EQ(w, 40);
      EXPECT_EQ(h, 30);
      EXPECT_EQ(head, "data:image/" + format + ";base64");
      ++formats[format];
      ++images;
    } else {
      std::string format, path;
      lines >> format >> path;
      const Proc f = run_process(dir, {"/usr/bin/ffprobe", "-v", "error", "-show_entries",
                                   "stream=sample_rate,channels,bits_per_sample,duration", "-of",
                                   "default=noprint_wrappers=1", path});
      ASSERT_EQ(f.exit_code, 0) << f.err;
      EXPECT_TRUE(f.out.find("sample_rate=16000") != std::string::npos ||
                  f.out.find("sample_rate=22050") != std::string::npos) << f.out;
      EXPECT_NE(f.out.find("channels=1"), std::string::npos) << f.out;
      EXPECT_NE(f.out.find("duration=0.25"), std::string::npos) << f.out;
      ++audios;
    }
  }
  EXPECT_EQ(images, 2 * 6);  // two per entry, six entries
  EXPECT_EQ(audios, 6);
  EXPECT_GT(formats["png"], 0);
  EXPECT_GT(formats["jpeg"], 0);
  // On the wire: each request carried two images and one clip of the flags' sizes.
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 6u);
  for (const auto& s : sent) {
    ASSERT_TRUE(s.contains("media")) << s.dump();
    ASSERT_EQ(s["media"].size(), 3u);
    EXPECT_EQ(s["media"][0]["width"], 40);
    EXPECT_EQ(s["media"][1]["height"], 30);
    EXPECT_EQ(s["media"][2]["kind"], "audio");
    EXPECT_NEAR(s["media"][2]["duration_s"].get<double>(), 0.25, 1e-3);
  }
}

TEST(ProfileMedia, SameSeedSameBytesMp3Decodes) {
  if (!have_tools()) GTEST_SKIP() << "needs python3-pil and ffprobe (scripts/setup.sh)";
  std::string inputs[2];
  for (int i = 0; i < 2; ++i) {
    const std::string dir = make_temp_dir("media-seed");
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1"}));
    auto r = run_profile(dir, media_args(mock.url(), {"--image-width-mean", "24", "--image-height-mean",
                                                      "24", "--audio-length-mean", "0.5",
                                                      "--audio-format", "mp3"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    inputs[i] = read_file(r.artifact_dir + "/inputs.json");
    if (i == 0) {
      std::ofstream(dir + "/decode.py") << kDecode;
      const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/decode.py", r.artifact_dir + "/inputs.json", dir});
      ASSERT_EQ(p.exit_code, 0) << p.err;
      const Proc f = run_process(dir, {"/usr/bin/ffprobe", "-v", "error", "-show_entries",
                                   "stream=codec_name,sample_rate", "-of", "default=noprint_wrappers=1",
                                   dir + "/clip1.mp3"});
      EXPECT_NE(f.out.find("codec_name=mp3"), std::string::npos) << f.out << f.err;
      EXPECT_NE(f.out.find("sample_rate=16000"), std::string::npos) << f.out;
    }
  }
  EXPECT_GT(inputs[0].size(), 1000u);
  EXPECT_EQ(inputs[0], inputs[1]) << "the same seed must give byte-identical media";
}

// Media bodies past SERVEBENCH_BODY_STORE_MIB live in a file-backed store (load/body_store.h):
// the same seed sends and exports the same bytes either way, and the store is really used (a
// store folder that cannot take files fails it, but not a run below the threshold).
TEST(ProfileMedia, BodiesFromTheFileBackedStoreAreSentAndExportedUnchanged) {
  struct Run {
    int exit_code = -1;
    std::string err, inputs;
    std::multiset<std::string> media;
  };
  auto run = [](const char* mib, const char* tmpdir) {
    Run out;
    const std::string dir = make_temp_dir("media-store");
    Server mock;
    EXPECT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
    mib ? setenv("SERVEBENCH_BODY_STORE_MIB", mib, 1) : unsetenv("SERVEBENCH_BODY_STORE_MIB");
    const auto r = [&] {
      ScopedEnv tmp("TMPDIR", tmpdir);
      return run_profile(dir, media_args(mock.url(), {"--image-width-mean", "40", "--image-height-mean",
                                                      "30", "--image-batch-size", "2",
                                                      "--warmup-request-count", "2"}));
    }();
    unsetenv("SERVEBENCH_BODY_STORE_MIB");
    mock.stop();
    out.exit_code = r.exit_code;
    out.err = r.stderr_text;
    if (r.exit_code != 0) return out;
    out.inputs = read_file(r.artifact_dir + "/inputs.json");
    for (const auto& s : read_jsonl(dir + "/rec.jsonl")) out.media.insert(s.value("media", Json()).dump());
    return out;
  };
  const Run memory = run(nullptr, nullptr);
  const Run stored = run("0", nullptr);
  ASSERT_EQ(memory.exit_code, 0) << memory.err;
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  EXPECT_GT(stored.inputs.size(), 1000u);
  EXPECT_EQ(stored.inputs, memory.inputs);
  EXPECT_EQ(stored.media.size(), 8u);  // 2 warm-up + 6 profiling requests
  EXPECT_EQ(stored.media, memory.media);
  EXPECT_EQ(run(nullptr, "/nonexistent-servebench-tmp").exit_code, 0);  // below the threshold
  const Run no_store = run("0", "/nonexistent-servebench-tmp");
  EXPECT_EQ(no_store.exit_code, 2);
  EXPECT_NE(no_store.err.find("TMPDIR"), std::string::npos) << no_store.err;
  auto bad = run("lots", nullptr);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("SERVEBENCH_BODY_STORE_MIB=lots"), std::string::npos) << bad.err;
}

TEST(ProfileMedia, BadMediaFlagsAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("media-bad");
  const std::vector<std::vector<std::string>> cases = {
      {"--image-width-mean", "32", "--image-height-mean", "32", "--image-format", "gif"},
      {"--image-width-mean", "32"},
      {"--audio-length-mean", "1", "--audio-depths", "12"},
      {"--audio-length-mean", "1", "--audio-format", "mp3", "--audio-sample-rates", "17"},
      {"--audio-length-mean", "1", "--endpoint-type", "embeddings"},
  };
  for (const auto& extra : cases) {
    auto r = run_profile(dir, media_args("http://127.0.0.1:9", extra), 10);
    EXPECT_EQ(r.exit_code, 2) << extra[0] << ": " << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_LT(r.wall_s, 2.0);
  }
}

}  // namespace
}  // namespace servebench::itest
