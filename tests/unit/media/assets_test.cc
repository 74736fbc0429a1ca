// --image-source assets: the bundled pictures decode, each image is a random window of one of
// them with the image's aspect ratio, the windows follow the seed, and a generator's images are
// the drawn size.
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "media/embedded_pictures.h"
#include "media/image_source.h"
#include "media/synthetic_media.h"

namespace servebench::media {
namespace {

std::string from_base64(std::string_view in) {
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  uint32_t acc = 0;
  int bits = 0;
  for (char ch : in) {
    if (ch == '=') break;
    acc = (acc << 6) | static_cast<uint32_t>(kAlphabet.find(ch));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return bytes;
}

TEST(Assets, BundledPicturesDecode) {
  const auto& pictures = embedded_pictures();
  ASSERT_EQ(pictures.size(), 5u);
  std::set<std::string_view> names;
  size_t total = 0;
  for (const auto& p : pictures) {
    names.insert(p.name);
    total += p.bytes.size();
    auto im = decode_image(p.bytes);
    ASSERT_TRUE(im) << p.name;
    EXPECT_GE(im->width, 300) << p.name;
    EXPECT_GE(im->height, 300) << p.name;
  }
  EXPECT_EQ(names.size(), 5u);
  EXPECT_LT(total, size_t{1} << 20);  // the binary carries under 1 MiB of pictures
  EXPECT_EQ(ImageSourceSet::open_assets(SourceSampling::kSequentialCycle).size(), 5u);
}

TEST(Assets, WindowsKeepTheAspectRatioAndFollowTheSeed) {
  auto set = ImageSourceSet::open_assets(SourceSampling::kRandomWithReplacement);
  auto again = ImageSourceSet::open_assets(SourceSampling::kRandomWithReplacement);
  std::mt19937_64 rng(5), rng_again(5);
  std::set<std::tuple<const RgbImage*, int, int, int, int>> windows;
  std::map<const RgbImage*, int> per_picture;
  for (int i = 0; i < 200; ++i) {
    const int w = 64 + i % 7 * 100, h = 48 + i % 5 * 150;
    const SourcePick s = set.pick(w, h, rng);
    const SourcePick t = again.pick(w, h, rng_again);
    ASSERT_TRUE(s.picture);
    EXPECT_EQ(s.window.x, t.window.x);
    EXPECT_EQ(s.window.y, t.window.y);
    EXPECT_EQ(s.window.width, t.window.width);
    EXPECT_EQ(s.window.height, t.window.height);
    const RgbImage& p = *s.picture;
    EXPECT_GE(s.window.x, 0);
    EXPECT_GE(s.window.y, 0);
    EXPECT_LE(s.window.x + s.window.width, p.width);
    EXPECT_LE(s.window.y + s.window.height, p.height);
    // The image's aspect ratio, within a pixel's rounding.
    EXPECT_NEAR(static_cast<double>(s.window.width) / s.window.height, static_cast<double>(w) / h,
                static_cast<double>(w) / h * 2.5 / std::min(s.window.width, s.window.height));
    // At least half of the largest window that fits (on its limiting side).
    EXPECT_TRUE(s.window.width * 2 >= p.width - 1 || s.window.height * 2 >= p.height - 1);
    windows.insert({s.picture.get(), s.window.x, s.window.y, s.window.width, s.window.height});
    ++per_picture[s.picture.get()];
  }
  EXPECT_GT(windows.size(), 190u);  // random windows: hardly ever the same twice
  EXPECT_EQ(per_picture.size(), 5u);
}

TEST(Assets, GeneratorImagesAreTheDrawnSizeAndDifferPerTurn) {
  MediaOptions o;
  o.image.width_mean = 96;
  o.image.height_mean = 64;
  o.image.batch_size = 2;
  o.image.format = "jpeg";
  o.image.source = "assets";
  ASSERT_TRUE(check_media_options(o));
  MediaGenerator a(o, 3), b(o, 3), other(o, 4);
  std::set<std::string> distinct;
  for (int turn = 0; turn < 4; ++turn) {
    auto x = a.next_turn(), y = b.next_turn(), z = other.next_turn();
    ASSERT_TRUE(x && y && z) << (x ? "" : x.error().message);
    ASSERT_EQ(x->size(), 2u);
    for (size_t i = 0; i < x->size(); ++i) {
      EXPECT_EQ((*x)[i].base64, (*y)[i].base64);  // same seed, same bytes
      EXPECT_NE((*x)[i].base64, (*z)[i].base64);
      distinct.insert((*x)[i].base64);
      auto im = decode_image(from_base64((*x)[i].base64));
      ASSERT_TRUE(im);
      EXPECT_EQ(im->width, 96);
      EXPECT_EQ(im->height, 64);
    }
  }
  EXPECT_EQ(distinct.size(), 8u);
}

}  // namespace
}  // namespace servebench::media
