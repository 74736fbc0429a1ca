// --image-source assets, --media-pool-size and session media end to end against
// servebench-mock. What servebench sends is decoded with Debian's python3-PIL (no code shared
// with servebench): formats and sizes match the flags, bundled-picture crops look like
// photographs (neighbouring pixels close, unlike noise) and differ between requests, the same
// seed gives byte-identical bodies, a pool of N gives N distinct images, and sessions whose
// media live in the file-backed store send the same bytes as sessions that hold them in memory.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

bool have_pil() {
  return fs::exists("/usr/bin/python3") && std::system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0;
}

// One line per image of inputs.json (every turn of every session):
//   <format> <width> <height> <mean |horizontal neighbour difference|> <sha1 of the bytes>
const char* kDecode = R"PY(
import base64, hashlib, io, json, sys
from PIL import Image
j = json.load(open(sys.argv[1]))
for s in j["data"]:
    for body in s["payloads"]:
        for part in body["messages"][-1]["content"]:
            if part["type"] != "image_url":
                continue
            raw = base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
            im = Image.open(io.BytesIO(raw))
            im.load()
            g = im.convert("L")
            w, h = g.size
            px = g.load()
            diff = sum(abs(px[x + 1, y] - px[x, y]) for y in range(h) for x in range(w - 1)) / ((w - 1) * h)
            print(im.format.lower(), w, h, "%.1f" % diff, hashlib.sha1(raw).hexdigest())
)PY";

struct Decoded {
  std::string format;
  int width = 0, height = 0;
  double neighbour_diff = 0;
  std::string sha1;
};

struct MediaRun {
  int exit_code = -1;
  std::string err, inputs;
  std::vector<Decoded> images;
  std::vector<Json> sent;  // the mock's record of each request
};

// `tmpdir`: TMPDIR for servebench alone (where its body store goes).
MediaRun profile(const std::string& tag, std::vector<std::string> extra, const char* tmpdir = nullptr) {
  MediaRun out;
  const std::string dir = make_temp_dir(tag);
  Server mock;
  EXPECT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
  std::vector<std::string> args = {"-m", "mock-model", "-u", mock.url(), "--endpoint-type", "chat",
                                   "--tokenizer", "simple", "--isl", "16", "--osl", "4",
                                   "--concurrency", "2", "--random-seed", "21"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = [&] {
    ScopedEnv tmp("TMPDIR", tmpdir);
    return run_profile(dir, args);
  }();
  mock.stop();
  out.exit_code = r.exit_code;
  out.err = r.stderr_text;
  if (r.exit_code != 0) return out;
  out.inputs = read_file(r.artifact_dir + "/inputs.json");
  out.sent = read_jsonl(dir + "/rec.jsonl");
  std::ofstream(dir + "/decode.py") << kDecode;
  const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/decode.py", r.artifact_dir + "/inputs.json"});
  EXPECT_EQ(p.exit_code, 0) << p.err;
  std::istringstream lines(p.out);
  Decoded im;
  while (lines >> im.format >> im.width >> im.height >> im.neighbour_diff >> im.sha1) out.images.push_back(im);
  return out;
}

std::vector<std::string> assets_flags(const std::string& format) {
  return {"--image-width-mean", "120", "--image-height-mean", "80", "--image-batch-size", "2",
          "--image-format", format, "--image-source", "assets"};
}

TEST(MediaAssets, CropsOfBundledPicturesDecodeAtTheFlagsSize) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  std::vector<std::string> flags = assets_flags("jpeg");
  for (const char* f : {"--num-dataset-entries", "6", "--request-count", "6"}) flags.push_back(f);
  const MediaRun a = profile("assets-a", flags);
  const MediaRun b = profile("assets-b", flags);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  ASSERT_EQ(a.images.size(), 12u);  // two per entry
  std::set<std::string> distinct;
  for (const Decoded& im : a.images) {
    EXPECT_EQ(im.format, "jpeg");
    EXPECT_EQ(im.width, 120);
    EXPECT_EQ(im.height, 80);
    EXPECT_LT(im.neighbour_diff, 30) << "a photograph's neighbouring pixels are close (noise: over 50)";
    distinct.insert(im.sha1);
  }
  EXPECT_EQ(distinct.size(), 12u) << "every request gets its own crop";
  EXPECT_EQ(a.inputs, b.inputs) << "the same seed must give byte-identical bodies";
  ASSERT_EQ(a.sent.size(), 6u);
  for (const auto& s : a.sent) {
    ASSERT_EQ(s["media"].size(), 2u) << s.dump();
    EXPECT_EQ(s["media"][0]["width"], 120);
    EXPECT_EQ(s["media"][1]["height"], 80);
  }
  // Noise for contrast: the same check tells them apart.
  std::vector<std::string> noise = flags;
  noise[std::find(noise.begin(), noise.end(), "assets") - noise.begin()] = "noise";
  const MediaRun n = profile("assets-noise", noise);
  ASSERT_EQ(n.exit_code, 0) << n.err;
  ASSERT_FALSE(n.images.empty());
  for (const Decoded& im : n.images) EXPECT_GT(im.neighbour_diff, 50);
}

TEST(MediaAssets, APoolOfNGivesNDistinctImages) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  std::vector<std::string> flags = {"--image-width-mean", "48", "--image-height-mean", "32", "--image-format", "png",
                                    "--num-dataset-entries", "12", "--request-count", "12",
                                    "--media-pool-size", "3"};
  const MediaRun a = profile("pool-a", flags);
  const MediaRun b = profile("pool-b", flags);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  ASSERT_EQ(a.images.size(), 12u);
  std::map<std::string, int> uses;
  for (const Decoded& im : a.images) {
    EXPECT_EQ(im.format, "png");
    EXPECT_EQ(im.width, 48);
    EXPECT_EQ(im.height, 32);
    ++uses[im.sha1];
  }
  EXPECT_EQ(uses.size(), 3u) << "12 requests drew from a pool of 3";
  EXPECT_EQ(a.inputs, b.inputs);
  ASSERT_EQ(a.sent.size(), 12u);
  const MediaRun bad = profile("pool-bad", {"--image-width-mean", "8", "--image-height-mean", "8",
                                       "--media-pool-size", "many"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--media-pool-size"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  const MediaRun no_media = profile("pool-no-media", {"--media-pool-size", "3"});
  EXPECT_EQ(no_media.exit_code, 2);
  EXPECT_EQ(no_media.err,
            "servebench profile: --media-pool-size reuses synthetic media: it needs --image-*, --audio-* or "
            "--video-* sizes and synthetic prompts (no --input-file/--public-dataset); drop it or add them\n");
}

// Session turns' media: held in memory below the body store's threshold, in the store above it
// (SERVEBENCH_BODY_STORE_MIB=0); either way the same seed sends and exports the same bytes.
TEST(MediaAssets, SessionMediaFromTheStoreMatchMemory) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  std::vector<std::string> flags = assets_flags("png");
  for (const char* f : {"--num-sessions", "3", "--session-turns-mean", "3"})
    flags.push_back(f);
  const MediaRun memory = profile("sessions-memory", flags);
  setenv("SERVEBENCH_BODY_STORE_MIB", "0", 1);
  const MediaRun stored = profile("sessions-store", flags);
  std::vector<std::string> pooled = flags;
  for (const char* f : {"--media-pool-size", "2"}) pooled.push_back(f);
  const MediaRun pool = profile("sessions-pool", pooled);
  const MediaRun no_store = profile("sessions-no-store", flags, "/nonexistent-servebench-tmp");
  unsetenv("SERVEBENCH_BODY_STORE_MIB");
  ASSERT_EQ(memory.exit_code, 0) << memory.err;
  ASSERT_EQ(stored.exit_code, 0) << stored.err;
  ASSERT_EQ(memory.images.size(), 3u * 3 * 2);  // sessions × turns × batch
  for (const Decoded& im : memory.images) {
    EXPECT_EQ(im.width, 120);
    EXPECT_EQ(im.height, 80);
  }
  EXPECT_EQ(stored.inputs, memory.inputs);
  std::multiset<std::string> sent_memory, sent_stored;
  for (const auto& s : memory.sent) sent_memory.insert(s.value("media", Json()).dump());
  for (const auto& s : stored.sent) sent_stored.insert(s.value("media", Json()).dump());
  EXPECT_EQ(sent_memory.size(), 9u);
  EXPECT_EQ(sent_stored, sent_memory);
  ASSERT_EQ(pool.exit_code, 0) << pool.err;
  std::set<std::string> pool_images;
  for (const Decoded& im : pool.images) pool_images.insert(im.sha1);
  EXPECT_EQ(pool.images.size(), 18u);
  EXPECT_EQ(pool_images.size(), 2u);
  EXPECT_EQ(no_store.exit_code, 2);
  EXPECT_NE(no_store.err.find("TMPDIR"), std::string::npos) << no_store.err;
}

}  // namespace
}  // namespace servebench::itest
