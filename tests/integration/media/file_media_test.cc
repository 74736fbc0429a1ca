// Media inputs of dataset files end to end: `servebench profile --input-file` with image, audio
// and video fields (local paths, data URLs, URLs) against servebench-mock. The pictures and the
// clip are written by tools servebench shares no code with (python3-PIL, Python's wave module);
// inputs.json must carry exactly their bytes, and the mock's request record must show what it
// decoded on the wire. Missing files and media for a type that takes none are one-line usage
// errors naming the row. Also --image-source DIR end to end.
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

bool have_pil() {
  return fs::exists("/usr/bin/python3") && std::system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0;
}

// Writes pic.png (50×20), pic.jpg (30×10), clip.wav (16 kHz mono, 0.5 s) into argv[1].
const char* kMake = R"PY(
import sys, wave
from PIL import Image
d = sys.argv[1]
Image.new("RGB", (50, 20), (10, 200, 30)).save(d + "/pic.png")
Image.new("RGB", (30, 10), (200, 10, 30)).save(d + "/pic.jpg", quality=80)
w = wave.open(d + "/clip.wav", "wb"); w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
w.writeframes(b"\x00\x01" * 8000); w.close()
)PY";

// Prints, per media part of inputs.json: "<type> same" when its payload is exactly the base64 of
// the named file, else the part's head (URL or data-URL prefix).
const char* kCheck = R"PY(
import base64, json, sys
d = sys.argv[2]
files = {n: base64.b64encode(open(d + "/" + n, "rb").read()).decode() for n in ("pic.png", "pic.jpg", "clip.wav")}
for s in json.load(open(sys.argv[1]))["data"]:
    for body in s["payloads"]:
        for part in body["messages"][-1]["content"]:
            t = part["type"]
            if t == "text": continue
            v = part["image_url"]["url"] if t == "image_url" else part["input_audio"]["data"]
            payload = v.split(",", 1)[1] if v.startswith("data:") else v
            same = [n for n, b in files.items() if b == payload]
            print(t, same[0] if same else v[:40])
)PY";

std::vector<std::string> file_args(const std::string& url, const std::string& file, std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {"-m", "mock-model", "-u", url, "--endpoint-type", "chat", "--tokenizer", "simple",
                                "--input-file", file, "--custom-dataset-type", "single_turn", "--request-count", "2",
                                "--concurrency", "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(FileMedia, PathsAreInlinedUrlsPassThroughAndTheMockDecodesThem) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  const std::string dir = make_temp_dir("file-media");
  std::ofstream(dir + "/make.py") << kMake;
  ASSERT_EQ(run_process(dir, {"/usr/bin/python3", dir + "/make.py", dir}).exit_code, 0);
  // The second row's data URL: pic.jpg's bytes, encoded by coreutils' base64.
  const Proc b64 = run_process(dir, {"/usr/bin/base64", "-w0", dir + "/pic.jpg"});
  ASSERT_EQ(b64.exit_code, 0);
  std::ofstream(dir + "/rows.jsonl")
      << "{\"text\": \"describe\", \"images\": [\"" << dir << "/pic.png\", \"https://example.com/cat.jpg\"], "
      << "\"audio\": \"" << dir << "/clip.wav\"}\n"
      << "{\"image\": \"data:image/jpeg;base64," << b64.out << "\"}\n";
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, file_args(mock.url(), dir + "/rows.jsonl", {"--dataset-sampling-strategy", "sequential"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::ofstream(dir + "/check.py") << kCheck;
  const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/check.py", r.artifact_dir + "/inputs.json", dir});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out,
            "image_url pic.png\nimage_url https://example.com/cat.jpg\ninput_audio clip.wav\nimage_url pic.jpg\n");
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 2u);
  std::map<size_t, Json> by_parts;
  for (const auto& s : sent) by_parts[s["media"].size()] = s["media"];
  ASSERT_EQ(by_parts.count(3), 1u) << sent[0].dump();
  const Json& m = by_parts[3];
  EXPECT_EQ(m[0]["format"], "png");
  EXPECT_EQ(m[0]["width"], 50);
  EXPECT_EQ(m[0]["height"], 20);
  EXPECT_EQ(m[1]["format"], "url");
  EXPECT_EQ(m[2]["format"], "wav");
  EXPECT_EQ(m[2]["sample_rate"], 16000);
  EXPECT_NEAR(m[2]["duration_s"].get<double>(), 0.5, 1e-3);
  ASSERT_EQ(by_parts.count(1), 1u);
  EXPECT_EQ(by_parts[1][0]["format"], "jpeg");
  EXPECT_EQ(by_parts[1][0]["width"], 30);
  // The image rows apply without any --image-* flag: 2 + 1 images over the two rows.
  const Json summary = Json::parse(read_file(r.artifact_dir + "/profile_export_aiperf.json"));
  ASSERT_TRUE(summary.contains("num_images")) << "image metrics of a file with images";
  EXPECT_DOUBLE_EQ(summary["num_images"]["avg"].get<double>(), 1.5);
}

// Session turns hold views of each file's bytes, kept once: in memory below the body store's
// threshold, in the store above it (SERVEBENCH_BODY_STORE_MIB=0). Either way the wire and
// inputs.json carry exactly the files.
TEST(FileMedia, MultiTurnRowsCarryTheirTurnsMedia) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  const std::string dir = make_temp_dir("file-media-mt");
  std::ofstream(dir + "/make.py") << kMake;
  ASSERT_EQ(run_process(dir, {"/usr/bin/python3", dir + "/make.py", dir}).exit_code, 0);
  std::ofstream(dir + "/conv.jsonl") << "{\"session_id\": \"s1\", \"turns\": [{\"text\": \"first\", \"image\": \"" << dir
                                     << "/pic.png\"}, {\"text\": \"second\", \"images\": [\"" << dir << "/pic.jpg\", \""
                                     << dir << "/pic.png\"]}]}\n";
  std::ofstream(dir + "/check.py") << kCheck;
  for (const char* mib : {static_cast<const char*>(nullptr), "0"}) {
    SCOPED_TRACE(mib ? "media in the body store" : "media in memory");
    const std::string run_dir = make_temp_dir(mib ? "file-media-mt-store" : "file-media-mt-memory");
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", run_dir + "/rec.jsonl"}));
    auto args = file_args(mock.url(), dir + "/conv.jsonl");
    *std::find(args.begin(), args.end(), "single_turn") = "multi_turn";
    const auto r = [&] {
      ScopedEnv store("SERVEBENCH_BODY_STORE_MIB", mib);
      return run_profile(run_dir, args);
    }();
    mock.stop();
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const auto sent = read_jsonl(run_dir + "/rec.jsonl");
    ASSERT_EQ(sent.size(), 2u);
    std::vector<std::string> formats;
    for (const auto& s : sent)
      for (const auto& m : s["media"]) formats.push_back(m["format"].get<std::string>() + std::to_string(m["width"].get<int>()));
    EXPECT_EQ(formats, (std::vector<std::string>{"png50", "jpeg30", "png50"}));
    const Proc p = run_process(run_dir, {"/usr/bin/python3", dir + "/check.py", r.artifact_dir + "/inputs.json", dir});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out, "image_url pic.png\nimage_url pic.jpg\nimage_url pic.png\n");
  }
}

// --image-source DIR end to end: three pictures written by PIL (red, green, blue), sent in
// file-name order resized to the flags' size; PIL decodes inputs.json and reads their colours.
TEST(ImageSource, DirectoryPicturesAreResizedAndSentInOrder) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  const std::string dir = make_temp_dir("image-source");
  fs::create_directories(dir + "/pics");
  std::ofstream(dir + "/make.py") << R"PY(
import sys
from PIL import Image
d = sys.argv[1]
Image.new("RGB", (300, 200), (240, 10, 10)).save(d + "/a.png")
Image.new("RGB", (64, 64), (10, 240, 10)).save(d + "/b.jpg", quality=95)
Image.new("RGB", (7, 9), (10, 10, 240)).save(d + "/c.png")
)PY";
  ASSERT_EQ(run_process(dir, {"/usr/bin/python3", dir + "/make.py", dir + "/pics"}).exit_code, 0);
  std::ofstream(dir + "/colours.py") << R"PY(
import base64, io, json, sys
from PIL import Image
for s in json.load(open(sys.argv[1]))["data"]:
    for body in s["payloads"]:
        for part in body["messages"][-1]["content"]:
            if part["type"] != "image_url": continue
            im = Image.open(io.BytesIO(base64.b64decode(part["image_url"]["url"].split(",", 1)[1]))).convert("RGB")
            r, g, b = im.getpixel((im.size[0] // 2, im.size[1] // 2))
            print(im.size[0], im.size[1], "rgb"[[r, g, b].index(max(r, g, b))])
)PY";
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1"}));
  auto r = run_profile(dir, {"-m", "mock-model", "-u", mock.url(), "--tokenizer", "simple", "--isl", "8", "--osl", "2",
                             "--request-count", "2", "--num-dataset-entries", "2", "--concurrency", "1",
                             "--dataset-sampling-strategy", "sequential", "--image-width-mean", "40",
                             "--image-height-mean", "20", "--image-batch-size", "2", "--image-source", dir + "/pics",
                             "--image-source-sampling", "sequential-cycle"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/colours.py", r.artifact_dir + "/inputs.json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "40 20 r\n40 20 g\n40 20 b\n40 20 r\n");  // a.png, b.jpg, c.png, then a.png again
  auto bad = run_profile(dir, {"-m", "mock-model", "-u", "http://127.0.0.1:9", "--image-width-mean", "8",
                               "--image-height-mean", "8", "--image-source", dir + "/none"}, 10);
  EXPECT_EQ(bad.exit_code, 2) << bad.stderr_text;
  EXPECT_NE(bad.stderr_text.find("--image-source '" + dir + "/none': not a directory"), std::string::npos)
      << bad.stderr_text;
}

TEST(FileMedia, MissingFilesAndMediaForTextTypesAreOneLineUsageErrors) {
  const std::string dir = make_temp_dir("file-media-bad");
  std::ofstream(dir + "/rows.jsonl") << "{\"text\": \"a\"}\n{\"text\": \"b\", \"images\": [\"" << dir << "/gone.png\"]}\n";
  auto r = run_profile(dir, file_args("http://127.0.0.1:9", dir + "/rows.jsonl"), 10);
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("rows.jsonl':2: field 'images': file '" + dir + "/gone.png' not found"), std::string::npos)
      << r.stderr_text;
  std::ofstream(dir + "/url.jsonl") << "{\"text\": \"a\", \"image\": \"https://example.com/a.png\"}\n";
  auto text_args = file_args("http://127.0.0.1:9", dir + "/url.jsonl");
  *std::find(text_args.begin(), text_args.end(), "chat") = "completions";
  auto c = run_profile(dir, text_args, 10);
  EXPECT_EQ(c.exit_code, 2) << c.stderr_text;
  EXPECT_EQ(std::count(c.stderr_text.begin(), c.stderr_text.end(), '\n'), 1) << c.stderr_text;
  EXPECT_NE(c.stderr_text.find("field 'image': endpoint type 'completions' refuses images (takes no media inputs)"), std::string::npos) << c.stderr_text;
}

}  // namespace
}  // namespace servebench::itest

namespace servebench::itest {
namespace {

// --uuid-and-strip: rows of one session (single_turn rows sharing a session_id) that repeat an
// image send it once with its bytes and then as {"image_url": null, "uuid"}; a new image and
// another session's first use go whole. The uuid names the content: equal images share it.
TEST(FileMedia, UuidAndStripSendsARepeatedImageOncePerSession) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  const std::string dir = make_temp_dir("file-media-uuid");
  std::ofstream(dir + "/make.py") << kMake;
  ASSERT_EQ(run_process(dir, {"/usr/bin/python3", dir + "/make.py", dir}).exit_code, 0);
  const std::string png = dir + "/pic.png", jpg = dir + "/pic.jpg";
  std::ofstream(dir + "/rows.jsonl")
      << "{\"session_id\": \"a\", \"text\": \"one\", \"image\": \"" << png << "\"}\n"
      << "{\"session_id\": \"a\", \"text\": \"two\", \"images\": [\"" << png << "\", \"" << jpg << "\"]}\n"
      << "{\"session_id\": \"a\", \"text\": \"three\", \"image\": \"" << jpg << "\"}\n"
      << "{\"session_id\": \"b\", \"text\": \"four\", \"image\": \"" << png << "\"}\n";
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--record-requests", dir + "/rec.jsonl"}));
  auto r = run_profile(dir, {"-m", "mock-model", "-u", mock.url(), "--endpoint-type", "chat", "--tokenizer",
                             "simple", "--input-file", dir + "/rows.jsonl", "--custom-dataset-type", "single_turn",
                             "--concurrency", "1", "--uuid-and-strip"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto sent = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(sent.size(), 4u);
  std::stable_sort(sent.begin(), sent.end(), [](const Json& x, const Json& y) {
    return x.at("received_steady_ns").get<int64_t>() < y.at("received_steady_ns").get<int64_t>();
  });
  // Per request, in arrival order: "<format>:<stripped>" per image, and the uuids.
  std::vector<std::string> shape;
  std::map<std::string, std::string> uuid_of_format;
  for (const auto& s : sent) {
    std::string line;
    for (const auto& m : s.at("media")) {
      ASSERT_TRUE(m.contains("uuid")) << m.dump();
      line += m.at("format").get<std::string>() + (m.at("stripped").get<bool>() ? ":stripped " : ":whole ");
      if (!m.at("stripped").get<bool>()) uuid_of_format[m.at("format").get<std::string>()] = m.at("uuid");
    }
    shape.push_back(line);
  }
  // Sessions run one at a time (concurrency 1): a's three rows, then b's.
  EXPECT_EQ(shape, (std::vector<std::string>{"png:whole ", "uuid:stripped jpeg:whole ", "uuid:stripped ",
                                             "png:whole "}));
  EXPECT_EQ(sent[1].at("media")[0].at("uuid"), uuid_of_format["png"]);
  EXPECT_EQ(sent[2].at("media")[0].at("uuid"), uuid_of_format["jpeg"]);
  EXPECT_NE(uuid_of_format["png"], uuid_of_format["jpeg"]);
  EXPECT_EQ(sent[3].at("media")[0].at("uuid"), uuid_of_format["png"]);  // same bytes, same uuid
}

}  // namespace
}  // namespace servebench::itest
