// Media for the non-chat types end to end: `servebench profile --image-*` (and --audio-*)
// with --endpoint-type responses, messages, nim_embeddings and chat_embeddings against
// servebench-mock. inputs.json's images, in each API's own shape, are decoded by python3-PIL; the
// mock decodes what reached it and records it; kinds a type refuses are one-line usage errors.
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

bool have_pil() {
  return fs::exists("/usr/bin/python3") && std::system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0;
}

// Prints "image <format> <w> <h>" for every image of inputs.json, wherever its API puts it: a
// data URL string (OpenAI parts, NIM "<img src='...'/>" inputs) or an Anthropic base64 source.
const char* kDecode = R"PY(
import base64, io, json, re, sys
from PIL import Image
def show(b64):
    im = Image.open(io.BytesIO(base64.b64decode(b64))); im.load()
    print("image", im.format.lower(), im.size[0], im.size[1])
def walk(v):
    if isinstance(v, dict):
        src = v.get("source")
        if v.get("type") == "image" and isinstance(src, dict) and src.get("type") == "base64":
            show(src["data"]); return
        for x in v.values(): walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
    elif isinstance(v, str):
        for m in re.finditer(r"data:image/[a-z]+;base64,([A-Za-z0-9+/=]+)", v): show(m.group(1))
for s in json.load(open(sys.argv[1]))["data"]:
    for body in s["payloads"]: walk(body)
)PY";

std::vector<std::string> args_for(const std::string& url, const std::string& type, std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "mock-model", "-u", url, "--endpoint-type", type, "--tokenizer", "simple",
                                "--isl", "12", "--osl", "4", "--request-count", "3", "--concurrency", "1",
                                "--num-dataset-entries", "3", "--random-seed", "5"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(MediaShapes, EachTypeSendsImagesInItsShapeAndTheMockDecodesThem) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  for (const std::string type : {"responses", "messages", "nim_embeddings", "chat_embeddings"}) {
    SCOPED_TRACE(type);
    const std::string dir = make_temp_dir("media-shapes");
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
    auto r = run_profile(dir, args_for(mock.url(), type, {"--image-width-mean", "40", "--image-height-mean", "30",
                                                          "--image-batch-size", "2", "--image-format", "random"}));
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    std::ofstream(dir + "/decode.py") << kDecode;
    const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/decode.py", r.artifact_dir + "/inputs.json"});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    std::istringstream lines(p.out);
    std::string word, format;
    int w = 0, h = 0, images = 0;
    while (lines >> word >> format >> w >> h) {
      EXPECT_EQ(w, 40);
      EXPECT_EQ(h, 30);
      ++images;
    }
    EXPECT_EQ(images, 2 * 3) << p.out;
    const auto sent = read_jsonl(dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 3u);
    for (const auto& s : sent) {
      ASSERT_TRUE(s.contains("media")) << s.dump();
      ASSERT_EQ(s["media"].size(), 2u) << s.dump();
      EXPECT_EQ(s["media"][0]["kind"], "image");
      EXPECT_EQ(s["media"][1]["width"], 40);
    }
  }
}

TEST(MediaShapes, ResponsesCarryAudio) {
  const std::string dir = make_temp_dir("media-shapes-audio");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, args_for(mock.url(), "responses", {"--audio-length-mean", "0.25"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  for (const auto& s : read_jsonl(dir + "/rec.jsonl")) {
    ASSERT_EQ(s["media"].size(), 1u) << s.dump();
    EXPECT_EQ(s["media"][0]["format"], "wav");
    EXPECT_NEAR(s["media"][0]["duration_s"].get<double>(), 0.25, 1e-3);
  }
}

TEST(MediaShapes, RefusedKindsAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("media-shapes-bad");
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"messages", {"--audio-length-mean", "1"}},
      {"nim_embeddings", {"--audio-length-mean", "1"}},
      {"responses", {"--video-width", "32", "--video-height", "32"}},
      {"embeddings", {"--image-width-mean", "8", "--image-height-mean", "8"}},
  };
  for (const auto& [type, extra] : cases) {
    auto r = run_profile(dir, args_for("http://127.0.0.1:9", type, extra), 10);
    EXPECT_EQ(r.exit_code, 2) << type << ": " << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("endpoint type '" + type + "'"), std::string::npos) << r.stderr_text;
  }
}

}  // namespace
}  // namespace servebench::itest
