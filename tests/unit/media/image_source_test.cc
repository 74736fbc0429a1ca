// --image-source DIR: pictures decoded once (PNG, JPEG), resized, sampled in AIPerf's three
// orders; unreadable files skipped; a directory without a picture is a one-line error.
#include "media/image_source.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "media/encoders.h"
#include "media/synthetic_media.h"

namespace servebench::media {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> solid(int w, int h, uint8_t r, uint8_t g, uint8_t b) {
  std::vector<uint8_t> px(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < px.size(); i += 3) px[i] = r, px[i + 1] = g, px[i + 2] = b;
  return px;
}

// a.png (red), b.jpg (green), c.png (blue), notes.txt and broken.png (skipped).
std::string picture_dir(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / ("sb_img_src_" + tag + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "a.png", std::ios::binary) << *encode_png(solid(8, 4, 250, 0, 0), 8, 4);
  std::ofstream(dir / "b.jpg", std::ios::binary) << *encode_jpeg(solid(16, 16, 0, 250, 0), 16, 16, 95);
  std::ofstream(dir / "c.png", std::ios::binary) << *encode_png(solid(3, 5, 0, 0, 250), 3, 5);
  std::ofstream(dir / "notes.txt") << "not a picture";
  std::ofstream(dir / "broken.png") << "\x89PNG\r\n\x1a\ntruncated";
  return dir.string();
}

// The dominant channel of a picture: 0 red, 1 green, 2 blue.
int colour(const RgbImage& im) {
  const uint8_t* p = im.rgb.data() + (im.rgb.size() / 6) * 3;
  return p[0] > 128 ? 0 : p[1] > 128 ? 1 : 2;
}

TEST(ImageSource, DecodesPngAndJpegAndResizes) {
  const std::vector<uint8_t> px = solid(4, 2, 10, 20, 30);
  auto png = decode_image(*encode_png(px, 4, 2));
  ASSERT_TRUE(png);
  EXPECT_EQ(png->width, 4);
  EXPECT_EQ(png->rgb, px);  // lossless
  auto jpg = decode_image(*encode_jpeg(solid(16, 8, 200, 100, 50), 16, 8, 95));
  ASSERT_TRUE(jpg);
  EXPECT_EQ(jpg->height, 8);
  EXPECT_NEAR(jpg->rgb[0], 200, 4);
  EXPECT_FALSE(decode_image("GIF89a..."));
  EXPECT_FALSE(decode_image("\xff\xd8\xff\xe0 truncated jpeg"));
  const RgbImage big = resize_image(*png, 40, 30);
  EXPECT_EQ(big.rgb.size(), 40u * 30 * 3);
  EXPECT_EQ(big.rgb[0], 10);
  EXPECT_EQ(big.rgb[big.rgb.size() - 1], 30);  // a solid picture stays solid
}

TEST(ImageSource, SamplingOrders) {
  const std::string dir = picture_dir("order");
  std::mt19937_64 rng(7);
  auto seq = ImageSourceSet::open(dir, SourceSampling::kSequentialCycle);
  ASSERT_TRUE(seq) << seq.error().message;
  EXPECT_EQ(seq->names(), (std::vector<std::string>{"a.png", "b.jpg", "c.png"}));  // broken and txt skipped
  std::vector<int> order;
  for (int i = 0; i < 6; ++i) order.push_back(colour(seq->next(6, 6, rng)));
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 0, 1, 2}));
  auto shuffle = ImageSourceSet::open(dir, SourceSampling::kShuffleCycle);
  ASSERT_TRUE(shuffle);
  for (int round = 0; round < 4; ++round) {  // every picture once per round
    std::map<int, int> seen;
    for (int i = 0; i < 3; ++i) ++seen[colour(shuffle->next(5, 5, rng))];
    EXPECT_EQ(seen.size(), 3u);
  }
  auto random = ImageSourceSet::open(dir, SourceSampling::kRandomWithReplacement);
  ASSERT_TRUE(random);
  std::map<int, int> counts;
  bool repeat = false;
  int last = -1;
  for (int i = 0; i < 300; ++i) {
    const int c = colour(random->next(2, 2, rng));
    repeat |= c == last;
    last = c;
    ++counts[c];
  }
  EXPECT_TRUE(repeat);  // with replacement: back-to-back repeats happen
  for (const auto& [c, n] : counts) EXPECT_GT(n, 60) << c;
}

TEST(ImageSource, ErrorsNameTheDirectoryAndTheFix) {
  auto missing = ImageSourceSet::open("/no/such/pictures", SourceSampling::kSequentialCycle);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "--image-source '/no/such/pictures': not found; give noise or a directory of PNG/JPEG pictures");
  const fs::path empty = fs::temp_directory_path() / ("sb_img_src_empty" + std::to_string(::getpid()));
  fs::create_directories(empty);
  auto none = ImageSourceSet::open(empty.string(), SourceSampling::kSequentialCycle);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no readable PNG or JPEG picture"), std::string::npos);
  EXPECT_FALSE(parse_source_sampling("round-robin"));
  MediaOptions o;
  o.image.width_mean = o.image.height_mean = 8;
  o.image.source = "assets";  // bundled: no directory needed
  EXPECT_TRUE(check_media_options(o));
  o.image.source = "/no/such/pictures";
  EXPECT_EQ(check_media_options(o).error().message,
            "--image-source '/no/such/pictures': not a directory; give noise, assets or a directory of PNG/JPEG "
            "pictures");
  o.image.source = "noise";
  o.image.source_sampling = "sometimes";
  EXPECT_NE(check_media_options(o).error().message.find("--image-source-sampling 'sometimes'"), std::string::npos);
}

TEST(ImageSource, GeneratorDrawsResizedSourcePictures) {
  MediaOptions o;
  o.image.width_mean = 12;
  o.image.height_mean = 9;
  o.image.batch_size = 3;
  o.image.source = picture_dir("gen");
  o.image.source_sampling = "sequential-cycle";
  MediaGenerator gen(o, 1);
  auto turn = gen.next_turn();
  ASSERT_TRUE(turn) << turn.error().message;
  ASSERT_EQ(turn->size(), 3u);
  std::vector<int> colours;
  for (const auto& part : *turn) {
    EXPECT_EQ(part.format, "png");
    std::string bytes;
    // base64 back to bytes through the PNG decoder: the picture at the drawn size.
    static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t acc = 0;
    int bits = 0;
    for (char ch : part.base64) {
      if (ch == '=') break;
      acc = (acc << 6) | static_cast<uint32_t>(kAlphabet.find(ch));
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes.push_back(static_cast<char>((acc >> bits) & 0xff));
      }
    }
    auto im = decode_image(bytes);
    ASSERT_TRUE(im);
    EXPECT_EQ(im->width, 12);
    EXPECT_EQ(im->height, 9);
    colours.push_back(colour(*im));
  }
  EXPECT_EQ(colours, (std::vector<int>{0, 1, 2}));
}

}  // namespace
}  // namespace servebench::media

namespace servebench::media {
namespace {

// A turn's images are encoded on several threads: the same seed still gives the same bytes, and
// each image is what encode_image makes of its drawn job alone.
TEST(ImageEncoding, ParallelEncodingKeepsTheSeedsBytes) {
  MediaOptions o;
  o.image.width_mean = 64;
  o.image.height_mean = 48;
  o.image.width_stddev = 10;
  o.image.batch_size = 4;
  o.image.format = "random";
  MediaGenerator a(o, 9), b(o, 9);
  std::set<std::string> distinct;
  for (int turn = 0; turn < 3; ++turn) {
    auto x = a.next_turn();
    auto y = b.next_turn();
    ASSERT_TRUE(x && y);
    ASSERT_EQ(x->size(), 4u);
    for (size_t i = 0; i < x->size(); ++i) {
      EXPECT_EQ((*x)[i].base64, (*y)[i].base64);
      distinct.insert((*x)[i].base64);
    }
  }
  EXPECT_EQ(distinct.size(), 12u);  // noise never repeats
  ImageJob job;
  job.width = 5;
  job.height = 4;
  job.format = "png";
  job.noise_seed = 42;
  auto one = encode_image(job), two = encode_image(job);
  ASSERT_TRUE(one && two);
  EXPECT_EQ(one->base64, two->base64);
}

}  // namespace
}  // namespace servebench::media
