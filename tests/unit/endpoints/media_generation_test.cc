// The media types (image_generation, video_generation, image_retrieval): bodies with and
// without extras, the image parser on whole and streamed Images API answers, and the video
// parser's steps (submit → poll → maybe download), with their follow-up URLs and delays.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

using nlohmann::json;
using record::ErrorKind;
using record::RequestRecord;

std::unique_ptr<Endpoint> make(const std::string& type, const std::string& extras = "",
                               bool streaming = false, bool download = false) {
  EndpointOptions o;
  o.model = "gen";
  o.extra_inputs_json = extras;
  o.streaming = streaming;
  o.download_video_content = download;
  auto e = make_endpoint(type, o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return std::move(*e);
}

TurnPayload prompt(const std::string& text) {
  TurnPayload t;
  t.messages.push_back({"user", text});
  return t;
}

TEST(ImageGeneration, BodyAsAiperfSendsIt) {
  EXPECT_EQ(make("image_generation")->render_body(prompt("a whale")),
            R"({"prompt":"a whale","model":"gen","response_format":"b64_json","n":1})");
  const json streamed = json::parse(
      make("image_generation", R"({"size":"256x256","n":2,"partial_images":1})", true)
          ->render_body(prompt("x")));
  EXPECT_EQ(streamed["stream"], true);
  EXPECT_EQ(streamed["n"], 2) << "an extra replaces the standard key";
  EXPECT_EQ(streamed["size"], "256x256");
  EXPECT_EQ(streamed.size(), 7u);  // n replaced in place; size and partial_images appended
  auto spec = find_spec("image_generation");
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ((*spec)->metrics_title, "Image Generation Metrics");
  EXPECT_FALSE((*spec)->has(core::kCapProducesTokens));
}

TEST(ImageGeneration, ParserCountsImagesNotPartials) {
  auto p = make_event_parser("image_generation");
  RequestRecord whole;
  EXPECT_EQ(p->parse_body(R"({"created":1,"data":[{"b64_json":"iVBO"},{"url":"http://x"}],)"
                          R"("usage":{"input_tokens":4,"output_tokens":9,"total_tokens":13}})",
                          7, &whole),
            ParseStatus::kOk);
  EXPECT_EQ(whole.output_items, 2);
  EXPECT_EQ(whole.usage.prompt_tokens, 4);
  EXPECT_EQ(whole.usage.completion_tokens, 9);
  ASSERT_EQ(whole.chunks.size(), 1u);
  EXPECT_EQ(whole.chunks[0].kind, record::ChunkKind::kEmpty);

  RequestRecord s;
  s.streaming = true;
  const char* partial =
      R"({"type":"image_generation.partial_image","b64_json":"iVBO","partial_image_index":0})";
  EXPECT_EQ(p->parse_event(SseEventView{"image_generation.partial_image", partial}, 5, &s),
            ParseStatus::kOk);
  EXPECT_EQ(s.output_items, 0);
  EXPECT_EQ(p->parse_event(R"({"type":"image_generation.completed","b64_json":"iVBO"})", 6, &s),
            ParseStatus::kOk);
  EXPECT_EQ(p->parse_event(R"({"b64_json":"iVBO"})", 7, &s), ParseStatus::kOk) << "SGLang";
  EXPECT_EQ(s.output_items, 2);
  EXPECT_EQ(s.chunks.size(), 3u);

  RequestRecord bad;
  EXPECT_EQ(p->parse_body(R"({"created":1})", 1, &bad), ParseStatus::kMalformed);
  RequestRecord refused;
  EXPECT_EQ(p->parse_body(R"({"error":{"message":"content policy"}})", 1, &refused),
            ParseStatus::kServerError);
  EXPECT_NE(refused.error_message.find("content policy"), std::string::npos);
}

struct Step {
  ParseStatus status;
  FollowUp next;
};

Step step(EventParser& p, RequestRecord* rec, int32_t kind, const std::string& body,
          const std::string& url = "http://h/v1/videos/video_1") {
  Step s;
  s.status = p.parse_step(body, 9, StepContext{kind == 0 ? 0 : 1, kind, "http://h/v1/videos", url},
                          rec, &s.next);
  return s;
}

TEST(VideoGeneration, SubmitPollDownload) {
  EXPECT_EQ(make("video_generation", R"({"seconds":4})")->render_body(prompt("a whale")),
            R"({"prompt":"a whale","model":"gen","seconds":4})");
  auto e = make("video_generation", "", false, true);
  auto p = e->make_parser();
  ASSERT_NE(p, nullptr);
  RequestRecord rec;
  Step s = step(*p, &rec, 0, R"({"id":"video_1","status":"queued","progress":0})");
  EXPECT_EQ(s.status, ParseStatus::kOk);
  EXPECT_EQ(s.next.url, "http://h/v1/videos/video_1");
  EXPECT_EQ(s.next.delay_ns, 0) << "the first poll goes out at once";
  s = step(*p, &rec, s.next.kind, R"({"id":"video_1","status":"in_progress","progress":50})");
  EXPECT_EQ(s.next.url, "http://h/v1/videos/video_1");
  EXPECT_EQ(s.next.delay_ns, 100'000'000) << "AIPerf's default interval";
  EXPECT_EQ(rec.output_items, -1);
  s = step(*p, &rec, s.next.kind,
           R"({"id":"video_1","status":"completed","inference_time_s":1.25,"peak_memory_mb":300.5})");
  EXPECT_EQ(rec.video_inference_s, 1.25);
  EXPECT_EQ(rec.video_peak_memory_mb, 300.5);
  EXPECT_EQ(rec.output_items, 1);
  EXPECT_EQ(s.next.url, "http://h/v1/videos/video_1/content");
  const int32_t download = s.next.kind;
  s = step(*p, &rec, download, std::string("\0\0\0\x18" "ftyp", 8));
  EXPECT_EQ(s.status, ParseStatus::kOk);
  EXPECT_TRUE(s.next.url.empty());
  EXPECT_TRUE(rec.ok());
  EXPECT_EQ(rec.chunks.size(), 2u) << "the submit answer and the completed poll";

  RequestRecord abs;
  s = step(*p, &abs, 1, R"({"id":"v","status":"completed","url":"https://cdn/v.mp4"})");
  EXPECT_EQ(s.next.url, "https://cdn/v.mp4");
  RequestRecord empty;
  EXPECT_EQ(step(*p, &empty, download, "").status, ParseStatus::kMalformed);
}

TEST(VideoGeneration, FailuresEndTheJob) {
  auto p = make("video_generation")->make_parser();
  RequestRecord failed;
  Step s = step(*p, &failed, 1,
                R"({"id":"v","status":"failed","error":{"code":"oom","message":"out of memory"}})");
  EXPECT_EQ(s.status, ParseStatus::kServerError);
  EXPECT_TRUE(s.next.url.empty());
  EXPECT_EQ(failed.error_message, "video generation failed: out of memory");
  RequestRecord no_id;
  EXPECT_EQ(step(*p, &no_id, 0, R"({"status":"queued"})").status, ParseStatus::kMalformed);
  RequestRecord done;
  s = step(*p, &done, 1, R"({"id":"v","status":"completed"})");
  EXPECT_TRUE(s.next.url.empty()) << "no download unless asked for";
  EXPECT_EQ(done.video_inference_s, -1) << "not reported";
}

TEST(ImageRetrieval, ImagesOnlyBody) {
  auto e = make("image_retrieval", R"({"threshold":0.5})");
  TurnPayload t = prompt("ignored text");
  core::MediaPart img;
  img.kind = core::MediaKind::kImage;
  img.mime = "image/png";
  img.base64 = "iVBO";
  t.media = {img, img};
  EXPECT_EQ(e->render_body(t),
            R"({"input":[{"type":"image_url","url":"data:image/png;base64,iVBO"},)"
            R"({"type":"image_url","url":"data:image/png;base64,iVBO"}],"threshold":0.5})");
  auto spec = find_spec("image_retrieval");
  ASSERT_TRUE(spec.has_value());
  OptionFacts none;
  EXPECT_FALSE(check_options(**spec, none).has_value()) << "images are required";
  OptionFacts media;
  media.media = true;
  EXPECT_TRUE(check_options(**spec, media).has_value());
}

TEST(ImageEdit, MultipartFormWithTheDecodedImage) {
  auto e = make("image_edit", R"({"quality":"high","n":2})");
  TurnPayload t = prompt("make it blue");
  core::MediaPart img;
  img.kind = core::MediaKind::kImage;
  img.mime = "image/png";
  img.format = "png";
  img.base64 = "iVBORw0KGgo=";  // the PNG signature
  t.media = {img};
  const std::string body = e->render_body(t);
  const std::string b = "--servebench-form-b7e2c91d4a3f5068";
  const std::string part = b + "\r\nContent-Disposition: form-data; name=";
  EXPECT_EQ(body, part + "\"prompt\"\r\n\r\nmake it blue\r\n" +
                      part + "\"model\"\r\n\r\ngen\r\n" +
                      part + "\"response_format\"\r\n\r\nb64_json\r\n" +
                      part + "\"quality\"\r\n\r\nhigh\r\n" +
                      part + "\"n\"\r\n\r\n2\r\n" +
                      part + "\"image\"; filename=\"image.png\"\r\nContent-Type: image/png\r\n\r\n" +
                      std::string("\x89PNG\r\n\x1a\n", 8) + "\r\n" + b + "--\r\n");
  auto spec = find_spec("image_edit");
  ASSERT_TRUE(spec.has_value());
  EXPECT_NE((*spec)->content_type.find("boundary=servebench-form-b7e2c91d4a3f5068"),
            std::string_view::npos);
  EndpointOptions bad;
  bad.extra_inputs_json = R"({"mask":"x"})";
  EXPECT_FALSE(make_endpoint("image_edit", bad).has_value());
}

}  // namespace
}  // namespace servebench::endpoints
