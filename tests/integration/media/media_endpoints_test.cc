// The media generation endpoint types end to end against servebench-mock: image_generation
// (whole and streamed answers), with the images the mock draws decoded by an independent tool
// (Debian's python3-PIL), image_retrieval and image_edit (images in), and video_generation (a job submitted, polled and downloaded); the
// latencies and video facts servebench measures are compared with the ones the mock injected.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>

#include "integration/mock/mock_harness.h"
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

namespace mt = mock::testing;

bool have_pil() {
  return fs::exists("/usr/bin/python3") &&
         std::system("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0;
}

// Decodes every base64 PNG of a JSON answer (data[].b64_json) and prints "<format> <w> <h>".
const char* kDecodeImages = R"PY(
import base64, io, json, sys
from PIL import Image
for item in json.load(open(sys.argv[1]))["data"]:
    im = Image.open(io.BytesIO(base64.b64decode(item["b64_json"], validate=True)))
    im.load()
    print(im.format.lower(), im.size[0], im.size[1], im.mode)
)PY";

TEST(MockImages, GenerationsAreRealPngs) {
  if (!have_pil()) GTEST_SKIP() << "needs python3-pil (scripts/setup.sh)";
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(mock->port(), "/v1/images/generations",
                         R"({"prompt":"a red whale","model":"m","n":2,"size":"40x24"})");
  ASSERT_EQ(r.status, 200) << r.body;
  const Json j = Json::parse(r.body);
  ASSERT_EQ(j["data"].size(), 2u);
  EXPECT_EQ(j["usage"]["input_tokens"], 3);
  EXPECT_EQ(j["size"], "40x24");
  const std::string dir = make_temp_dir("mock-images");
  std::ofstream(dir + "/answer.json") << r.body;
  std::ofstream(dir + "/decode.py") << kDecodeImages;
  const Proc p = run_process(dir, {"/usr/bin/python3", dir + "/decode.py", dir + "/answer.json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(p.out, "png 40 24 RGB\npng 40 24 RGB\n");
  EXPECT_NE(j["data"][0]["b64_json"], j["data"][1]["b64_json"]) << "each image its own pixels";

  // response_format url: a link the mock serves, the same PNG every time.
  auto u = mt::post_json(mock->port(), "/v1/images/generations",
                         R"({"prompt":"x","response_format":"url","size":"8x8"})");
  ASSERT_EQ(u.status, 200) << u.body;
  const std::string url = Json::parse(u.body)["data"][0]["url"];
  const std::string path = url.substr(url.find("/v1/images/mock/"));
  auto png = mt::get(mock->port(), path);
  ASSERT_EQ(png.status, 200);
  EXPECT_EQ(png.body.substr(1, 3), "PNG");
  EXPECT_EQ(mt::get(mock->port(), path).body, png.body);
  EXPECT_EQ(mt::get(mock->port(), "/v1/images/mock/nope.png").status, 404);

  for (const char* bad : {R"({"model":"m"})", R"({"prompt":"x","n":0})",
                          R"({"prompt":"x","size":"big"})", R"({"prompt":"x","size":"2000x8"})",
                          R"({"prompt":"x","response_format":"jpeg"})",
                          R"({"prompt":"x","partial_images":4})", "nope"}) {
    auto e = mt::post_json(mock->port(), "/v1/images/generations", bad);
    EXPECT_EQ(e.status, 400) << bad;
  }
}

std::vector<std::string> image_args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "img-model", "--tokenizer", "simple", "--endpoint-type",
                                "image_generation", "--isl", "12", "--request-count", "6",
                                "--concurrency", "2", "--random-seed", "3"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// Per record: request latency against the mock's planned due time, ISL against its count.
void expect_latencies(const MockRun& m, double due_ms) {
  std::map<std::string, Json> by_id;
  for (const Json& s : m.server) by_id[s["x_request_id"].get<std::string>()] = s;
  const auto records = m.r.records();
  ASSERT_EQ(records.size(), 6u);
  for (const Json& rec : records) {
    const Json& metrics = rec["metrics"];
    const Json& s = by_id.at(rec["metadata"]["x_request_id"].get<std::string>());
    EXPECT_EQ(s["due_ms"].get<double>(), due_ms);
    const double latency_ms = metrics["request_latency"]["value"].get<double>();
    EXPECT_GE(latency_ms, due_ms);
    EXPECT_LT(latency_ms, due_ms + 40) << "measured vs injected";
    EXPECT_EQ(metrics["input_sequence_length"]["value"].get<double>(),
              s["prompt_tokens"].get<double>());
    EXPECT_FALSE(metrics.contains("time_to_first_token"));
    EXPECT_FALSE(metrics.contains("inter_token_latency"));
    EXPECT_FALSE(metrics.contains("output_sequence_length"));
  }
}

TEST(ProfileImageGeneration, WholeAnswers) {
  const std::string dir = make_temp_dir("imggen");
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "50"}, image_args({"--extra-inputs", "size:24x16"}), {}, 60);
  ASSERT_EQ(m.r.exit_code, 0) << m.r.stderr_text;
  EXPECT_NE(fs::path(m.r.artifact_dir).filename().string().find(
                "img-model-openai-image_generation-concurrency2"),
            std::string::npos)
      << m.r.artifact_dir;
  ASSERT_EQ(m.server.size(), 6u);
  for (const Json& s : m.server) {
    EXPECT_EQ(s["path"], "/v1/images/generations");
    EXPECT_EQ(s["response_format"], "b64_json");
    EXPECT_EQ(s["n"], 1);
    EXPECT_EQ(s["width"], 24);
    EXPECT_EQ(s["height"], 16);
    EXPECT_EQ(s["stream"], false);
    EXPECT_EQ(s["prompt_tokens"], 12);
  }
  expect_latencies(m, 50);
  for (const Json& rec : m.r.records()) EXPECT_EQ(rec["servebench"]["output_items"], 1);
  const Json summary = m.r.summary();
  EXPECT_EQ(metric_avg(summary, "request_count"), 6);
  EXPECT_GE(metric_avg(summary, "request_latency"), 50);
  EXPECT_TRUE(summary.contains("request_throughput"));
  EXPECT_FALSE(summary.contains("time_to_first_token"));
  const std::string console = read_file(m.r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("Image Generation Metrics"), std::string::npos) << console;
}

TEST(ProfileImageGeneration, StreamedPartialImages) {
  const std::string dir = make_temp_dir("imggen-stream");
  // Two partial images 30 ms apart after a 40 ms TTFT: the completed image is due at 100 ms.
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "40", "--itl-ms", "30"},
      image_args({"--streaming", "--extra-inputs", "partial_images:2",
                  "--extra-inputs", "size:16x16"}),
      {}, 60);
  ASSERT_EQ(m.r.exit_code, 0) << m.r.stderr_text;
  ASSERT_EQ(m.server.size(), 6u);
  for (const Json& s : m.server) {
    EXPECT_EQ(s["stream"], true);
    EXPECT_EQ(s["partial_images"], 2);
  }
  expect_latencies(m, 100);
  // Partial images are progress: one finished image per request.
  for (const Json& rec : m.r.records()) EXPECT_EQ(rec["servebench"]["output_items"], 1);
}

TEST(ProfileImageGeneration, ServerFaultsAreErrors) {
  const std::string dir = make_temp_dir("imggen-faults");
  const MockRun m = run_with_recording_mock(
      dir, {"--error-rate", "100", "--error-kind", "error-event"},
      image_args({"--streaming"}), {}, 60);
  ASSERT_EQ(m.r.exit_code, 3) << m.r.stderr_text;  // every request failed
  for (const Json& rec : m.r.records()) EXPECT_TRUE(rec.contains("error")) << rec.dump();
}

TEST(ProfileImageGeneration, ConversationOptionsAreUsageErrors) {
  const std::string dir = make_temp_dir("imggen-bad");
  const RunResult r = run_profile(
      dir, image_args({"-u", "http://127.0.0.1:9", "--session-turns-mean", "3"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("image_generation"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
}

TEST(MockVideos, JobLifecycle) {
  auto mock = mt::MockProcess::start(
      {"--ttft-ms", "20", "--itl-ms", "20", "--video-steps", "4", "--video-content-bytes", "1000"});
  ASSERT_NE(mock, nullptr);
  auto r = mt::post_json(mock->port(), "/v1/videos",
                         R"({"prompt":"a whale","model":"v","size":"64x64","seconds":4})");
  ASSERT_EQ(r.status, 200) << r.body;
  const Json job = Json::parse(r.body);
  EXPECT_EQ(job["status"], "queued");
  EXPECT_EQ(job["seconds"], "4");
  const std::string id = job["id"];
  EXPECT_EQ(mt::get(mock->port(), "/v1/videos/" + id + "/content").status, 409);
  std::vector<int64_t> progress;
  Json last;
  const int64_t t0 = mt::steady_now_ns();
  while (mt::steady_now_ns() - t0 < 2'000'000'000) {
    auto p = mt::get(mock->port(), "/v1/videos/" + id);
    ASSERT_EQ(p.status, 200);
    last = Json::parse(p.body);
    progress.push_back(last["progress"].get<int64_t>());
    if (last["status"] == "completed") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(last["status"], "completed") << last.dump();
  EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
  EXPECT_GT(std::count_if(progress.begin(), progress.end(),
                          [](int64_t p) { return p > 0 && p < 100; }),
            0)
      << "steps in between";
  EXPECT_NEAR(last["inference_time_s"].get<double>(), 0.080, 1e-9);  // 4 steps of 20 ms
  EXPECT_EQ(last["peak_memory_mb"].get<double>(), 2048 + 8 * 4);
  auto content = mt::get(mock->port(), "/v1/videos/" + id + "/content");
  ASSERT_EQ(content.status, 200);
  EXPECT_EQ(content.body.size(), 1000u);
  EXPECT_EQ(content.body.substr(4, 4), "ftyp");
  EXPECT_EQ(mt::get(mock->port(), "/v1/videos/video_nope").status, 404);
  EXPECT_EQ(mt::post_json(mock->port(), "/v1/videos", R"({"model":"v"})").status, 400);
}

std::vector<std::string> video_args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"-m", "vid-model", "--tokenizer", "simple", "--endpoint-type",
                                "video_generation", "--isl", "10", "--random-seed", "4",
                                "--workers-max", "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// AIPERF_HTTP_VIDEO_POLL_INTERVAL for the servebench runs of one test.
struct PollInterval {
  explicit PollInterval(const char* seconds) { setenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL", seconds, 1); }
  ~PollInterval() { unsetenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL"); }
};

std::vector<Json> of_kind(const std::vector<Json>& lines, const char* kind) {
  std::vector<Json> out;
  for (const Json& l : lines)
    if (l["kind"] == kind) out.push_back(l);
  return out;
}

TEST(ProfileVideoGeneration, PollsUntilDoneWithoutBlockingTheWorker) {
  const std::string dir = make_temp_dir("vidgen");
  const PollInterval interval("0.01");
  // TTFT 20 ms, then 4 steps of 15 ms: each job is done 80 ms after its submit.
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "20", "--itl-ms", "15", "--video-steps", "4"},
      video_args({"--request-count", "8", "--concurrency", "4", "--extra-inputs", "seconds:4"}),
      {}, 60);
  ASSERT_EQ(m.r.exit_code, 0) << m.r.stderr_text;
  EXPECT_NE(fs::path(m.r.artifact_dir).filename().string().find(
                "vid-model-openai-video_generation-concurrency4"),
            std::string::npos);
  const auto submits = of_kind(m.server, "submit");
  const auto polls = of_kind(m.server, "poll");
  ASSERT_EQ(submits.size(), 8u);
  std::map<std::string, Json> by_request;
  std::map<std::string, int> polls_of;
  for (const Json& s : submits) by_request[s["x_request_id"].get<std::string>()] = s;
  for (const Json& p : polls) ++polls_of[p["id"].get<std::string>()];
  for (const Json& s : submits) {
    EXPECT_EQ(s["due_ms"], 80);
    // 80 ms at one poll per 10 ms: about 8 polls, never fewer than the job's steps.
    const int n = polls_of[s["id"].get<std::string>()];
    EXPECT_GE(n, 5) << s.dump();
    EXPECT_LE(n, 12) << s.dump();
  }
  EXPECT_TRUE(of_kind(m.server, "content").empty()) << "no download unless asked for";
  const auto records = m.r.records();
  ASSERT_EQ(records.size(), 8u);
  for (const Json& rec : records) {
    const Json& metrics = rec["metrics"];
    const Json& s = by_request.at(rec["metadata"]["x_request_id"].get<std::string>());
    const double latency_ms = metrics["request_latency"]["value"].get<double>();
    EXPECT_GE(latency_ms, 80);
    EXPECT_LT(latency_ms, 80 + 10 + 40) << "the first poll after completion ends it";
    EXPECT_NEAR(metrics["video_inference_time"]["value"].get<double>(),
                s["inference_time_s"].get<double>() * 1000, 1e-6);
    EXPECT_EQ(metrics["video_inference_time"]["unit"], "ms");
    EXPECT_EQ(metrics["video_peak_memory"]["value"].get<double>(),
              s["peak_memory_mb"].get<double>());
    EXPECT_EQ(metrics["input_sequence_length"]["value"].get<double>(),
              s["prompt_tokens"].get<double>());
    EXPECT_FALSE(metrics.contains("time_to_first_token"));
  }
  const Json summary = m.r.summary();
  EXPECT_EQ(metric_avg(summary, "request_count"), 8);
  EXPECT_NEAR(metric_avg(summary, "video_inference_time"), 60, 1e-6);  // 4 × 15 ms
  EXPECT_EQ(metric_avg(summary, "video_peak_memory"), 2080);
  // One worker ran four jobs at once: two waves of ~90 ms, not eight jobs one after another.
  EXPECT_LT(metric_avg(summary, "benchmark_duration"), 0.5) << summary["benchmark_duration"];
  const std::string console = read_file(m.r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("Video Generation Metrics"), std::string::npos) << console;
  EXPECT_NE(console.find("Video Inference Time"), std::string::npos) << console;
  // servebench report rebuilds the summary from profile_export.jsonl, video facts included.
  const std::string saved = read_file(m.r.artifact_dir + "/profile_export_aiperf.json");
  Json spoiled = Json::parse(saved);
  spoiled.erase("video_inference_time");
  spoiled.erase("video_peak_memory");
  std::ofstream(m.r.artifact_dir + "/profile_export_aiperf.json") << spoiled.dump();
  const Proc rep = run_process(dir, {bin_dir() + "/servebench", "report", m.r.artifact_dir,
                                     "--quiet", "--no-report"});
  ASSERT_EQ(rep.exit_code, 0) << rep.err;
  const Json rebuilt = m.r.summary();
  EXPECT_EQ(rebuilt["video_inference_time"], Json::parse(saved)["video_inference_time"]);
  EXPECT_EQ(rebuilt["video_peak_memory"], Json::parse(saved)["video_peak_memory"]);
}

TEST(ProfileVideoGeneration, DownloadCountsInLatency) {
  const std::string dir = make_temp_dir("vidgen-download");
  const PollInterval interval("0.005");
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "10", "--itl-ms", "10", "--video-steps", "2", "--video-content-bytes",
            "300000"},
      video_args({"--request-count", "3", "--concurrency", "1", "--download-video-content"}),
      {}, 60);
  ASSERT_EQ(m.r.exit_code, 0) << m.r.stderr_text;
  const auto content = of_kind(m.server, "content");
  ASSERT_EQ(content.size(), 3u);
  for (const Json& c : content) EXPECT_EQ(c["status"], "completed");
  for (const Json& rec : m.r.records()) {
    const Json& metrics = rec["metrics"];
    EXPECT_GE(metrics["request_latency"]["value"].get<double>(), 30);
    EXPECT_GT(metrics["http_req_data_received"]["value"].get<double>(), 300000 / 1024.0)
        << "the video's bytes arrived (AIPerf's KB: 1,024 bytes)";
  }
}

TEST(ProfileVideoGeneration, FailedJobsAndTimeoutsAreErrors) {
  const std::string dir = make_temp_dir("vidgen-fail");
  const PollInterval interval("0.005");
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "5", "--error-rate", "100", "--error-kind", "error-event"},
      video_args({"--request-count", "2", "--concurrency", "2"}), {}, 60);
  EXPECT_EQ(m.r.exit_code, 3) << m.r.stderr_text;
  for (const Json& rec : m.r.records()) {
    EXPECT_NE(rec["error"]["message"].get<std::string>().find(
                  "video generation failed: mock injected job failure"),
              std::string::npos)
        << rec.dump();
  }
  const std::string dir2 = make_temp_dir("vidgen-timeout");
  const MockRun t = run_with_recording_mock(
      dir2, {"--ttft-ms", "10", "--itl-ms", "500", "--video-steps", "4"},
      video_args({"--request-count", "1", "--request-timeout-seconds", "0.3"}), {}, 60);
  EXPECT_EQ(t.r.exit_code, 3) << t.r.stderr_text;
  const auto records = t.r.records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_NE(records[0]["error"]["message"].get<std::string>().find("--request-timeout-seconds"),
            std::string::npos)
      << records[0].dump();
}

TEST(ProfileVideoGeneration, BadInputIsOneLineExit2) {
  const std::string dir = make_temp_dir("vidgen-bad");
  auto one_line_exit2 = [&](std::vector<std::string> args, const std::string& needle) {
    args.insert(args.end(), {"-u", "http://127.0.0.1:9", "--request-count", "1"});
    const RunResult r = run_profile(dir, args);
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find(needle), std::string::npos) << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  };
  one_line_exit2(video_args({"--streaming"}), "--streaming");
  one_line_exit2({"-m", "x", "--tokenizer", "simple", "--endpoint-type", "chat",
                  "--download-video-content"},
                 "--download-video-content");
  {
    const PollInterval interval("0");
    one_line_exit2(video_args({}), "AIPERF_HTTP_VIDEO_POLL_INTERVAL");
  }
}

TEST(ProfileImageRetrieval, ImagesInLatencyOut) {
  const std::string dir = make_temp_dir("imgret");
  // 10 ms base + 15 ms per image; two 32x24 PNGs per request: due at 40 ms.
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "10", "--itl-ms", "15"},
      {"-m", "ret-model", "--tokenizer", "simple", "--endpoint-type", "image_retrieval",
       "--image-width-mean", "32", "--image-height-mean", "24", "--image-batch-size", "2",
       "--image-format", "png", "--request-count", "6", "--concurrency", "2", "--random-seed", "9"},
      {}, 60);
  ASSERT_EQ(m.r.exit_code, 0) << m.r.stderr_text;
  ASSERT_EQ(m.server.size(), 6u);
  for (const Json& s : m.server) {
    EXPECT_EQ(s["path"], "/v1/infer");
    EXPECT_EQ(s["num_images"], 2);
    EXPECT_EQ(s["due_ms"], 40);
    for (const Json& img : s["media"]) {
      EXPECT_EQ(img["format"], "png");
      EXPECT_EQ(img["width"], 32);
      EXPECT_EQ(img["height"], 24);
    }
  }
  const auto records = m.r.records();
  ASSERT_EQ(records.size(), 6u);
  for (const Json& rec : records) {
    const Json& metrics = rec["metrics"];
    const double latency_ms = metrics["request_latency"]["value"].get<double>();
    EXPECT_GE(latency_ms, 40);
    EXPECT_LT(latency_ms, 80);
    EXPECT_EQ(metrics["num_images"]["value"], 2);
    EXPECT_NEAR(metrics["image_latency"]["value"].get<double>(), latency_ms / 2, 1e-6);
    EXPECT_NEAR(metrics["image_throughput"]["value"].get<double>(), 2 / (latency_ms / 1000), 1e-6);
    EXPECT_EQ(metrics["image_latency"]["unit"], "ms/image");
    EXPECT_EQ(metrics["image_throughput"]["unit"], "images/sec");
    EXPECT_FALSE(metrics.contains("time_to_first_token"));
    EXPECT_EQ(rec["servebench"]["output_items"], 2) << "one result per image";
  }
  const Json summary = m.r.summary();
  EXPECT_EQ(metric_avg(summary, "num_images"), 2);
  EXPECT_GT(metric_avg(summary, "image_throughput"), 0);
  EXPECT_FALSE(summary.contains("input_sequence_length")) << "images only: nothing tokenized";
  const std::string console = read_file(m.r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("Image Retrieval Metrics"), std::string::npos) << console;
  EXPECT_NE(console.find("Image Latency"), std::string::npos) << console;

  const RunResult bad = run_profile(
      make_temp_dir("imgret-bad"),
      {"-m", "x", "--tokenizer", "simple", "--endpoint-type", "image_retrieval", "-u",
       "http://127.0.0.1:9", "--request-count", "1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.stderr_text.find("--image-width-mean"), std::string::npos) << bad.stderr_text;
  EXPECT_EQ(std::count(bad.stderr_text.begin(), bad.stderr_text.end(), '\n'), 1);
}

TEST(ProfileImageEdit, MultipartUploadOfTheInputImage) {
  const std::string dir = make_temp_dir("imgedit");
  const MockRun m = run_with_recording_mock(
      dir, {"--ttft-ms", "30"},
      {"-m", "edit-model", "--tokenizer", "simple", "--endpoint-type", "image_edit", "--isl", "6",
       "--image-width-mean", "20", "--image-height-mean", "10", "--image-format", "png",
       "--extra-inputs", "quality:high", "--request-count", "4", "--concurrency", "2",
       "--random-seed", "2"},
      {}, 60);
  ASSERT_EQ(m.r.exit_code, 0) << m.r.stderr_text;
  ASSERT_EQ(m.server.size(), 4u);
  for (const Json& s : m.server) {
    EXPECT_EQ(s["path"], "/v1/images/edits");
    EXPECT_EQ(s["prompt_tokens"], 6);
    EXPECT_EQ(s["input_image"][0]["format"], "png") << "the upload decodes";
    EXPECT_EQ(s["input_image"][0]["width"], 20);
    EXPECT_EQ(s["width"], 20) << "answered at the input's size";
    EXPECT_EQ(s["height"], 10);
  }
  for (const Json& rec : m.r.records()) {
    const Json& metrics = rec["metrics"];
    const double latency_ms = metrics["request_latency"]["value"].get<double>();
    EXPECT_GE(latency_ms, 30);
    EXPECT_LT(latency_ms, 70);
    EXPECT_EQ(metrics["num_images"]["value"], 1);
    EXPECT_NEAR(metrics["image_latency"]["value"].get<double>(), latency_ms, 1e-6);
    EXPECT_EQ(metrics["input_sequence_length"]["value"], 6);
    EXPECT_EQ(rec["servebench"]["output_items"], 1);
  }
  const std::string console = read_file(m.r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("Image Edit Metrics"), std::string::npos) << console;
  // inputs.json keeps each form as a string and stays valid JSON (UTF-8) with the image inside.
  Json inputs;
  ASSERT_NO_THROW(inputs = Json::parse(read_file(m.r.artifact_dir + "/inputs.json")));
  const std::string form = inputs["data"][0]["payloads"][0].get<std::string>();
  EXPECT_NE(form.find("name=\"image\"; filename=\"image.png\""), std::string::npos);

  const RunResult bad = run_profile(
      make_temp_dir("imgedit-bad"),
      {"-m", "x", "--tokenizer", "simple", "--endpoint-type", "image_edit", "-u",
       "http://127.0.0.1:9", "--image-width-mean", "8", "--image-height-mean", "8",
       "--extra-inputs", "image:x", "--request-count", "1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.stderr_text.find("--extra-inputs image"), std::string::npos) << bad.stderr_text;
  EXPECT_EQ(std::count(bad.stderr_text.begin(), bad.stderr_text.end(), '\n'), 1);
}

}  // namespace
}  // namespace servebench::itest
