#include "length_rules.h"

#include <gtest/gtest.h>

namespace servebench::mock {
namespace {

struct Req {
  std::optional<int64_t> max = std::nullopt;
  bool ignore_eos = false;
  int64_t min = 0;
  std::optional<int64_t> forced = std::nullopt;
  operator LengthRequest() const {  // NOLINT: test shorthand
    LengthRequest r;
    r.max_tokens = max;
    r.ignore_eos = ignore_eos;
    r.min_tokens = min;
    r.forced_tokens = forced;
    return r;
  }
};

TEST(LengthRules, IgnoreEosGivesExactlyMax) {
  core::Rng rng(1);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(choose_output_tokens(Req{.max = 20, .ignore_eos = true}, 128, rng), 20);
  }
  EXPECT_EQ(choose_output_tokens(Req{.ignore_eos = true}, 77, rng), 77);  // default when absent
}

TEST(LengthRules, ForcedWinsOverEverything) {
  core::Rng rng(1);
  EXPECT_EQ(choose_output_tokens(Req{.max = 20, .forced = 3}, 128, rng), 3);
  EXPECT_EQ(choose_output_tokens(Req{.max = 20, .forced = 0}, 128, rng), 0);
}

TEST(LengthRules, SeededLengthWithinMinAndMaxCoversRange) {
  core::Rng rng(5);
  bool saw_min = false, saw_max = false;
  for (int i = 0; i < 2000; ++i) {
    const int64_t n = choose_output_tokens(Req{.max = 12, .min = 8}, 128, rng);
    ASSERT_GE(n, 8);
    ASSERT_LE(n, 12);
    saw_min |= n == 8;
    saw_max |= n == 12;
  }
  EXPECT_TRUE(saw_min);
  EXPECT_TRUE(saw_max);
}

TEST(LengthRules, DefaultMaxWhenAbsentAndAtLeastOneToken) {
  core::Rng rng(5);
  int64_t biggest = 0;
  for (int i = 0; i < 2000; ++i) {
    const int64_t n = choose_output_tokens(Req{}, 16, rng);
    ASSERT_GE(n, 1);
    ASSERT_LE(n, 16);
    biggest = std::max(biggest, n);
  }
  EXPECT_EQ(biggest, 16);
}

TEST(LengthRules, MinEqualsMaxIsExact) {
  core::Rng rng(5);
  EXPECT_EQ(choose_output_tokens(Req{.max = 9, .min = 9}, 128, rng), 9);
}

TEST(LengthRules, SameSeedSameLengths) {
  core::Rng a(3), b(3);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(choose_output_tokens(Req{.max = 1000}, 1, a),
              choose_output_tokens(Req{.max = 1000}, 1, b));
  }
}

TEST(LengthRules, Validation) {
  EXPECT_TRUE(validate_length_request(Req{.max = 5, .min = 5}));
  EXPECT_FALSE(validate_length_request(Req{.max = 0}));
  EXPECT_FALSE(validate_length_request(Req{.max = 5, .min = 6}));
  EXPECT_FALSE(validate_length_request(Req{.min = -1}));
  EXPECT_TRUE(validate_length_request(Req{.max = kMaxTokensPerRequest}));
  EXPECT_FALSE(validate_length_request(Req{.max = kMaxTokensPerRequest + 1}));
  EXPECT_FALSE(validate_length_request(Req{.max = int64_t{1} << 40}));
  auto e = validate_length_request(Req{.max = 5, .min = 6});
  EXPECT_NE(e.error().message.find("min_tokens"), std::string::npos);
}

}  // namespace
}  // namespace servebench::mock
