#include "dataset/sequence_distribution.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace servebench::dataset {
namespace {

SequenceDistribution parse_ok(std::string_view spec) {
  auto d = SequenceDistribution::parse(spec);
  EXPECT_TRUE(d) << spec << ": " << (d ? "" : d.error().message);
  if (!d) return *SequenceDistribution::parse("1,1:100");
  return *d;
}

void expect_bin(const SequenceBin& b, double isl, double isl_sd, double osl, double osl_sd,
                double pct) {
  EXPECT_DOUBLE_EQ(b.isl_mean, isl);
  EXPECT_DOUBLE_EQ(b.isl_stddev, isl_sd);
  EXPECT_DOUBLE_EQ(b.osl_mean, osl);
  EXPECT_DOUBLE_EQ(b.osl_stddev, osl_sd);
  EXPECT_DOUBLE_EQ(b.prob_pct, pct);
}

TEST(SequenceDistribution, SemicolonForm) {
  auto d = parse_ok("256,128:40;512,256:60");
  ASSERT_EQ(d.bins().size(), 2u);
  expect_bin(d.bins()[0], 256, 0, 128, 0, 40);
  expect_bin(d.bins()[1], 512, 0, 256, 0, 60);
  EXPECT_EQ(d.to_string(), "256,128:40;512,256:60");
}

TEST(SequenceDistribution, SemicolonWithStddevsWhitespaceAndDecimals) {
  auto d = parse_ok("64|10,32|8:70;256|40,128|20:20;1024|100,512|50:10");
  ASSERT_EQ(d.bins().size(), 3u);
  expect_bin(d.bins()[0], 64, 10, 32, 8, 70);
  expect_bin(d.bins()[2], 1024, 100, 512, 50, 10);

  auto w = parse_ok("  256|.5 , 128 : 33.5 ; 512,256|2.25:66.5 ;");
  ASSERT_EQ(w.bins().size(), 2u);
  expect_bin(w.bins()[0], 256, 0.5, 128, 0, 33.5);
  expect_bin(w.bins()[1], 512, 0, 256, 2.25, 66.5);
  EXPECT_EQ(w.to_string(), "256|0.5,128:33.5;512,256|2.25:66.5");
}

TEST(SequenceDistribution, BracketForm) {
  auto d = parse_ok("[(256,128):40,(512,256):60]");
  EXPECT_EQ(d.to_string(), "256,128:40;512,256:60");
  auto s = parse_ok("[ (256|10, 128|5) : 60 , (512|20,256|15):40 ]");
  ASSERT_EQ(s.bins().size(), 2u);
  expect_bin(s.bins()[0], 256, 10, 128, 5, 60);
  expect_bin(s.bins()[1], 512, 20, 256, 15, 40);
}

TEST(SequenceDistribution, JsonForm) {
  auto d = parse_ok(
      R"({"pairs": [{"isl": 256, "osl": 128, "prob": 60}, {"isl": 512, "osl": 256, "prob": 40}]})");
  EXPECT_EQ(d.to_string(), "256,128:60;512,256:40");
  auto s = parse_ok(R"({"pairs": [
      {"isl": 256, "isl_stddev": 10, "osl": 128, "osl_stddev": 5, "prob": 60},
      {"isl": 512.9, "isl_stddev": 20, "osl": "256", "osl_stddev": 15, "prob": 40}]})");
  ASSERT_EQ(s.bins().size(), 2u);
  expect_bin(s.bins()[0], 256, 10, 128, 5, 60);
  expect_bin(s.bins()[1], 512, 20, 256, 15, 40);  // isl truncated as Python's int() does
}

TEST(SequenceDistribution, AllFormsAgree) {
  const std::string a = parse_ok("100|5,10:25;200,20|2:75").to_string();
  EXPECT_EQ(parse_ok("[(100|5,10):25,(200,20|2):75]").to_string(), a);
  EXPECT_EQ(parse_ok(R"({"pairs":[{"isl":100,"isl_stddev":5,"osl":10,"prob":25},)"
                     R"({"isl":200,"osl":20,"osl_stddev":2,"prob":75}]})")
                .to_string(),
            a);
}

TEST(SequenceDistribution, ProbabilitySumTolerance) {
  EXPECT_TRUE(SequenceDistribution::parse("100,10:33.33333;200,20:33.33333;300,30:33.33334"));
  EXPECT_TRUE(SequenceDistribution::parse("100,10:50.00005;200,20:50"));  // within 1e-6 + 1e-4
  EXPECT_FALSE(SequenceDistribution::parse("100,10:50.001;200,20:50"));
  EXPECT_TRUE(SequenceDistribution::parse("100,10:0;200,20:100"));
}

TEST(SequenceDistribution, ErrorsNameTheFlagOnOneLine) {
  const char* bad[] = {
      "",
      "   ",
      "256,128",
      "256:40",
      "abc",
      "256,128:40;512,256:50",
      "256.5,128:100",
      "0,128:100",
      "256,0:100",
      "256,128:150;1,1:-50",
      "-256,128:100",
      "256,128:100;junk",
      "256|x,128:100",
      "[(256,128):40 x (512,256):60]",
      "[(256,128):100",
      "[]",
      "{not json",
      R"({"pair": []})",
      R"({"pairs": []})",
      R"({"pairs": [{"isl": 256, "osl": 128}]})",
      R"({"pairs": [{"isl": 0, "osl": 128, "prob": 100}]})",
      R"({"pairs": [{"isl": 256, "osl": 128, "prob": 100, "isl_stddev": -1}]})",
      R"({"pairs": [{"isl": "many", "osl": 128, "prob": 100}]})",
      R"({"pairs": [7]})",
      "{\"256,128\": 40,\n \"512,256\": 60}",
  };
  for (const char* spec : bad) {
    auto d = SequenceDistribution::parse(spec);
    ASSERT_FALSE(d) << "accepted: " << spec;
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(d.error().message.find("--sequence-distribution"), std::string::npos)
        << d.error().message;
    EXPECT_EQ(d.error().message.find('\n'), std::string::npos) << d.error().message;
  }
  auto frac = SequenceDistribution::parse("256,128:0.4;512,256:0.6");
  ASSERT_FALSE(frac);
  EXPECT_NE(frac.error().message.find("percentages"), std::string::npos) << frac.error().message;
}

TEST(SequenceDistribution, DrawFrequenciesFollowProbabilities) {
  auto d = parse_ok("100,1:70;200,2:20;300,3:10;400,4:0");
  core::Rng rng = core::Rng::stream(11, "test.seqdist");
  std::map<int64_t, int> seen;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    auto x = d.draw(rng);
    ASSERT_EQ(x.osl * 100, x.isl) << "ISL and OSL come from the same bin";
    ++seen[x.isl];
  }
  EXPECT_NEAR(seen[100] / double(kDraws), 0.70, 0.01);
  EXPECT_NEAR(seen[200] / double(kDraws), 0.20, 0.01);
  EXPECT_NEAR(seen[300] / double(kDraws), 0.10, 0.01);
  EXPECT_EQ(seen.count(400), 0u) << "a zero-probability bin is never drawn";
}

TEST(SequenceDistribution, StddevDrawsArePositiveNormalIntegers) {
  auto d = parse_ok("1000|100,10|20:100");
  core::Rng rng = core::Rng::stream(5, "test.seqdist");
  double sum = 0, sq = 0;
  int64_t min_osl = 1 << 30;
  constexpr int kDraws = 50000;
  for (int i = 0; i < kDraws; ++i) {
    auto x = d.draw(rng);
    sum += static_cast<double>(x.isl);
    sq += static_cast<double>(x.isl) * static_cast<double>(x.isl);
    min_osl = std::min(min_osl, x.osl);
  }
  const double mean = sum / kDraws;
  const double sd = std::sqrt(sq / kDraws - mean * mean);
  EXPECT_NEAR(mean, 1000.5, 2.0);  // ceil() adds half a token on average
  EXPECT_NEAR(sd, 100.0, 3.0);
  EXPECT_EQ(min_osl, 1) << "OSL ~ N(10, 20) is floored at 1";
}

TEST(SequenceDistribution, SameSeedSameDraws) {
  auto d = parse_ok("64|10,32|8:70;256|40,128|20:30");
  core::Rng a = core::Rng::stream(3, "x"), b = core::Rng::stream(3, "x"),
            c = core::Rng::stream(4, "x");
  bool differs = false;
  for (int i = 0; i < 200; ++i) {
    auto x = d.draw(a), y = d.draw(b), z = d.draw(c);
    ASSERT_EQ(x.isl, y.isl);
    ASSERT_EQ(x.osl, y.osl);
    differs |= x.isl != z.isl;
  }
  EXPECT_TRUE(differs);
}

// to_string is the canonical form and parses back to the same bins, tiny values included
// (shortest form would print 1e-07, which the grammar does not read).
TEST(SequenceDistributionText, CanonicalFormRoundTripsWithoutExponents) {
  auto d = SequenceDistribution::parse("256|0.0000001,128:0.00000000000000000001;512,64|1.5:99.99999999999999999999");
  ASSERT_TRUE(d) << d.error().message;
  const std::string text = d->to_string();
  EXPECT_EQ(text.find_first_of("eE"), std::string::npos) << text;
  auto again = SequenceDistribution::parse(text);
  ASSERT_TRUE(again) << text << ": " << again.error().message;
  ASSERT_EQ(again->bins().size(), d->bins().size());
  for (size_t i = 0; i < d->bins().size(); ++i) {
    EXPECT_EQ(again->bins()[i].isl_stddev, d->bins()[i].isl_stddev);
    EXPECT_EQ(again->bins()[i].osl_stddev, d->bins()[i].osl_stddev);
    EXPECT_EQ(again->bins()[i].prob_pct, d->bins()[i].prob_pct);
  }
}

}  // namespace
}  // namespace servebench::dataset
