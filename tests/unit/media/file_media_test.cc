// Media inputs of dataset files: paths read and inlined (format from the bytes), URLs passed
// through, inline payloads kept, and one-line errors naming the file, line, field and value.
#include "media/file_media.h"

#include <unistd.h>

#include <deque>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "media/encoders.h"

namespace servebench::media {
namespace {

namespace fs = std::filesystem;

dataset::FileMedia ref(core::MediaKind k, std::string v, std::string field = "image") {
  return {k, std::move(v), std::move(field), 7};
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  const fs::path dir = fs::temp_directory_path() / ("sb_file_media_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
  return (dir / name).string();
}

TEST(FileMedia, PathIsReadAndInlinedWithTheFormatOfItsBytes) {
  const std::vector<uint8_t> rgb(4 * 3 * 3, 200);
  const std::string jpeg = *encode_jpeg(rgb, 4, 3);
  const std::string path = temp_file("really_a_jpeg.png", jpeg);  // the bytes win over the name
  FileMediaResolver r("rows.jsonl");
  auto p = r.resolve(ref(core::MediaKind::kImage, path));
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->format, "jpeg");
  EXPECT_EQ(p->mime, "image/jpeg");
  EXPECT_EQ(p->base64, base64(jpeg));
  EXPECT_TRUE(p->url.empty());
  EXPECT_EQ(p->data_url().substr(0, 23), "data:image/jpeg;base64,");
  ASSERT_TRUE(r.resolve(ref(core::MediaKind::kImage, path)));
  EXPECT_EQ(r.files_read(), 1u);  // read once per path
  const std::string wav = *encode_wav(std::vector<float>(160, 0.f), 16000, 1, 16);
  auto a = r.resolve(ref(core::MediaKind::kAudio, temp_file("clip.bin", wav), "audio"));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->format, "wav");
}

TEST(FileMedia, UrlsAndInlinePayloadsPassThrough) {
  FileMediaResolver r("rows.jsonl");
  auto u = r.resolve(ref(core::MediaKind::kImage, "https://example.com/cat.jpg?size=2"));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->url, "https://example.com/cat.jpg?size=2");
  EXPECT_EQ(u->format, "jpeg");
  EXPECT_TRUE(u->base64.empty());
  auto d = r.resolve(ref(core::MediaKind::kImage, "data:image/png;base64,iVBORw0K"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->format, "png");
  EXPECT_EQ(d->base64, "iVBORw0K");
  EXPECT_EQ(d->data_url(), "data:image/png;base64,iVBORw0K");
  auto a = r.resolve(ref(core::MediaKind::kAudio, "mp3,SUQz", "audio"));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->format, "mp3");
  EXPECT_EQ(a->mime, "audio/mpeg");
  EXPECT_EQ(a->base64, "SUQz");
  auto v = r.resolve(ref(core::MediaKind::kVideo, "data:video/webm;base64,GkXfow==", "video"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->format, "webm");
  EXPECT_EQ(r.files_read(), 0u);
}

TEST(FileMedia, AKeeperTakesEachFileOnceAndPartsCarryItsView) {
  const std::vector<uint8_t> rgb(4 * 3 * 3, 90);
  const std::string png = *encode_png(rgb, 4, 3);
  const std::string path = temp_file("kept.png", png);
  std::deque<std::string> kept;
  int calls = 0;
  FileMediaResolver r("rows.jsonl", [&](std::string b64) -> Result<std::string_view> {
    ++calls;
    return std::string_view(kept.emplace_back(std::move(b64)));
  });
  auto a = r.resolve(ref(core::MediaKind::kImage, path));
  auto b = r.resolve(ref(core::MediaKind::kImage, path));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(calls, 1);  // the file's bytes are kept once, whatever the rows naming it
  EXPECT_TRUE(a->base64.empty());
  EXPECT_EQ(a->b64(), base64(png));
  EXPECT_EQ(b->stored_base64.data(), a->stored_base64.data());  // the same bytes, not a copy
  EXPECT_EQ(a->data_url(), "data:image/png;base64," + base64(png));
  auto d = r.resolve(ref(core::MediaKind::kImage, "data:image/png;base64,iVBORw0K"));
  ASSERT_TRUE(d);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(d->b64(), "iVBORw0K");
  auto u = r.resolve(ref(core::MediaKind::kImage, "https://example.com/cat.jpg"));
  ASSERT_TRUE(u);
  EXPECT_EQ(calls, 2);  // a URL has no payload to keep
}

TEST(FileMedia, AKeeperErrorIsTheResolveError) {
  FileMediaResolver r("rows.jsonl", [](std::string) -> Result<std::string_view> {
    return make_error(ErrorCode::kIo, "body store: disk full");
  });
  auto p = r.resolve(ref(core::MediaKind::kImage, "data:image/png;base64,iVBORw0K"));
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().message, "body store: disk full");
}

TEST(FileMedia, ErrorsAreOneLineNamingTheRow) {
  FileMediaResolver r("rows.jsonl");
  auto missing = r.resolve(ref(core::MediaKind::kImage, "no/such/pic.png", "images"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(missing.error().message,
            "--input-file 'rows.jsonl':7: field 'images': file 'no/such/pic.png' not found; give an "
            "existing file, an http(s) URL or a data URL");
  auto dir = r.resolve(ref(core::MediaKind::kImage, fs::temp_directory_path().string()));
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().message.find("is not a regular file"), std::string::npos);
  auto text = r.resolve(ref(core::MediaKind::kImage, temp_file("notes.txt", "hello")));
  ASSERT_FALSE(text);
  EXPECT_NE(text.error().message.find("is not an image format servebench knows (png, jpeg"), std::string::npos);
  auto bad_url = r.resolve(ref(core::MediaKind::kImage, "http:pic.png"));
  ASSERT_FALSE(bad_url);
  EXPECT_NE(bad_url.error().message.find("needs a scheme and a host"), std::string::npos);
  auto not_b64 = r.resolve(ref(core::MediaKind::kImage, "data:image/png,rawbytes"));
  ASSERT_FALSE(not_b64);
  EXPECT_NE(not_b64.error().message.find("is not a base64 data URL"), std::string::npos);
  auto wrong_kind = r.resolve(ref(core::MediaKind::kImage, "data:audio/wav;base64,AAAA"));
  ASSERT_FALSE(wrong_kind);
  EXPECT_NE(wrong_kind.error().message.find("not image/..."), std::string::npos);
  for (const auto& e : {missing.error().message, text.error().message, bad_url.error().message})
    EXPECT_EQ(e.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace servebench::media
