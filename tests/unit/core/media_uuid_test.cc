#include "core/media_uuid.h"

#include <gtest/gtest.h>

namespace servebench::core {
namespace {

MediaPart image(const std::string& bytes) {
  MediaPart p;
  p.kind = MediaKind::kImage;
  p.mime = "image/png";
  p.base64 = bytes;
  return p;
}

TEST(MediaUuid, EqualImagesShareAUuidAndOtherKindsGetNone) {
  std::vector<MediaPart> parts = {image("AAAA"), image("BBBB"), image("AAAA")};
  MediaPart audio;
  audio.kind = MediaKind::kAudio;
  audio.base64 = "AAAA";
  parts.push_back(audio);
  stamp_image_uuids(&parts);
  EXPECT_EQ(parts[0].uuid.rfind("img-", 0), 0u);
  EXPECT_EQ(parts[0].uuid.size(), 4u + 32u);
  EXPECT_EQ(parts[0].uuid, parts[2].uuid);
  EXPECT_NE(parts[0].uuid, parts[1].uuid);
  EXPECT_TRUE(parts[3].uuid.empty());
}

TEST(MediaUuid, ASessionStripsWhatItSentBefore) {
  std::unordered_set<std::string> seen;
  std::vector<MediaPart> first = {image("AAAA")}, second = {image("AAAA"), image("CCCC")};
  stamp_image_uuids(&first);
  stamp_image_uuids(&second);
  std::vector<MediaPart> sent1, sent2;
  copy_stripping_seen_images(first, &seen, &sent1);
  ASSERT_EQ(sent1.size(), 1u);
  EXPECT_FALSE(sent1[0].stripped);
  EXPECT_EQ(sent1[0].base64, "AAAA");
  copy_stripping_seen_images(second, &seen, &sent2);
  ASSERT_EQ(sent2.size(), 2u);
  EXPECT_TRUE(sent2[0].stripped);
  EXPECT_TRUE(sent2[0].base64.empty());
  EXPECT_EQ(sent2[0].uuid, first[0].uuid);
  EXPECT_EQ(sent2[0].kind, MediaKind::kImage);
  EXPECT_FALSE(sent2[1].stripped);
  EXPECT_EQ(sent2[1].base64, "CCCC");
  EXPECT_EQ(second[0].base64, "AAAA");  // the turn's own parts are untouched
  // Parts without a uuid (the flag off) are never stripped.
  std::vector<MediaPart> plain = {image("AAAA"), image("AAAA")}, sent3;
  copy_stripping_seen_images(plain, &seen, &sent3);
  ASSERT_EQ(sent3.size(), 2u);
  EXPECT_FALSE(sent3[0].stripped);
  EXPECT_FALSE(sent3[1].stripped);
}

}  // namespace
}  // namespace servebench::core
