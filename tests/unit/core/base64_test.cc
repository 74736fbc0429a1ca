// Base64 decoding: RFC 4648's test vectors (section 10), the URL-safe alphabet, padding and
// line breaks skipped, and a character outside the alphabets refused.
#include "core/base64.h"

#include <gtest/gtest.h>

namespace servebench::core {
namespace {

TEST(Base64, Rfc4648VectorsDecode) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},         {"Zg==", "f"},         {"Zm8=", "fo"},        {"Zm9v", "foo"},
      {"Zm9vYg==", "foob"}, {"Zm9vYmE=", "fooba"}, {"Zm9vYmFy", "foobar"},
  };
  for (const auto& [in, want] : vectors) {
    std::string out = "stale";
    ASSERT_TRUE(decode_base64(in, &out)) << in;
    EXPECT_EQ(out, want) << in;
  }
}

TEST(Base64, UrlSafeAlphabetLineBreaksAndMissingPaddingAreAccepted) {
  std::string a, b;
  ASSERT_TRUE(decode_base64("+/+/", &a));
  ASSERT_TRUE(decode_base64("-_-_", &b));
  EXPECT_EQ(a, std::string("\xfb\xff\xbf", 3));
  EXPECT_EQ(a, b);
  ASSERT_TRUE(decode_base64("Zm9v\r\nYmFy\n", &a));
  EXPECT_EQ(a, "foobar");
  ASSERT_TRUE(decode_base64("Zm8", &a));
  EXPECT_EQ(a, "fo");
}

TEST(Base64, ACharacterOutsideTheAlphabetsIsRefused) {
  std::string out;
  EXPECT_FALSE(decode_base64("Zm9v*mFy", &out));
  EXPECT_FALSE(decode_base64("Zm9v\tYmFy", &out));
}

}  // namespace
}  // namespace servebench::core
