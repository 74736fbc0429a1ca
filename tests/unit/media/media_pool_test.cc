// --media-pool-size: N distinct media made once; turns draw their batches from them, distinct
// within a turn, in an order that follows the seed; the keep callback sees every pool item once.
#include "media/media_pool.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

namespace servebench::media {
namespace {

MediaOptions images_and_audio() {
  MediaOptions o;
  o.image.width_mean = 24;
  o.image.height_mean = 16;
  o.image.batch_size = 2;
  o.audio.length_mean_s = 0.05;
  o.audio.batch_size = 1;
  return o;
}

TEST(MediaPool, TurnsDrawFromNDistinctMedia) {
  int kept = 0;
  auto pool = MediaPool::build(images_and_audio(), 11, 3, [&](core::MediaPart*) -> Status {
    ++kept;
    return {};
  });
  ASSERT_TRUE(pool) << pool.error().message;
  EXPECT_EQ(kept, 6);  // 3 images + 3 clips
  ASSERT_EQ(pool->images().size(), 3u);
  ASSERT_EQ(pool->audio().size(), 3u);
  std::set<std::string> images, clips;
  for (const auto& p : pool->images()) images.insert(p.base64);
  for (const auto& p : pool->audio()) clips.insert(p.base64);
  EXPECT_EQ(images.size(), 3u);
  EXPECT_EQ(clips.size(), 3u);
  std::map<std::string, int> used;
  for (int turn = 0; turn < 60; ++turn) {
    auto m = pool->next_turn();
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].kind, core::MediaKind::kImage);
    EXPECT_EQ(m[2].kind, core::MediaKind::kAudio);
    EXPECT_NE(m[0].base64, m[1].base64);  // distinct within a turn
    for (const auto& p : m) {
      EXPECT_TRUE(images.count(p.base64) + clips.count(p.base64) == 1);
      ++used[p.base64];
    }
  }
  EXPECT_EQ(used.size(), 6u);  // every pool item is used
}

TEST(MediaPool, SameSeedSameTurns) {
  auto a = MediaPool::build(images_and_audio(), 5, 4, nullptr);
  auto b = MediaPool::build(images_and_audio(), 5, 4, nullptr);
  auto c = MediaPool::build(images_and_audio(), 6, 4, nullptr);
  ASSERT_TRUE(a && b && c);
  std::string sa, sc;
  for (int turn = 0; turn < 10; ++turn) {
    auto x = a->next_turn(), y = b->next_turn(), z = c->next_turn();
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_EQ(x[i].base64, y[i].base64);
      sa += x[i].base64;
      sc += z[i].base64;
    }
  }
  EXPECT_NE(sa, sc);
}

TEST(MediaPool, KeepCanMoveTheBytesOut) {
  std::vector<std::string> outside;
  outside.reserve(8);
  auto pool = MediaPool::build(images_and_audio(), 1, 2, [&](core::MediaPart* p) -> Status {
    outside.push_back(std::move(p->base64));
    p->base64.clear();
    p->stored_base64 = outside.back();
    return {};
  });
  ASSERT_TRUE(pool);
  for (const auto& part : pool->next_turn()) {
    EXPECT_TRUE(part.base64.empty());
    EXPECT_FALSE(part.b64().empty());
    EXPECT_EQ(part.data_url().substr(0, 5), "data:");
    EXPECT_EQ(part.data_url().size(), part.mime.size() + 13 + part.b64().size());
  }
  auto failing = MediaPool::build(images_and_audio(), 1, 2, [](core::MediaPart*) -> Status {
    return make_error(ErrorCode::kIo, "disk full");
  });
  ASSERT_FALSE(failing);
  EXPECT_EQ(failing.error().message, "disk full");
}

}  // namespace
}  // namespace servebench::media
