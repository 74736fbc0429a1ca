#include "export/text_util.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <random>

#include "core/secrets.h"

namespace servebench::exporter {
namespace {

TEST(TextUtilTest, ShortestRoundTrip) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(255.88656799999998), "255.88656799999998");
  EXPECT_EQ(format_number(550), "550");
  EXPECT_EQ(format_number(-0.0), "0");
  for (double v : {1.0 / 3, 2.0 / 3 * 1e-7, 123456789.123456789, 1e300, 5e-324}) {
    EXPECT_EQ(std::strtod(format_number(v).c_str(), nullptr), v);
  }
}

TEST(TextUtilTest, JsonNumbersNeverNonFinite) {
  std::string s;
  append_json_number(&s, std::numeric_limits<double>::infinity());
  append_json_number(&s, NAN);
  EXPECT_EQ(s, "nullnull");
}

TEST(TextUtilTest, JsonString) {
  std::string s;
  append_json_string(&s, "a\"b\\c\n\x01é");
  EXPECT_EQ(s, "\"a\\\"b\\\\c\\n\\u0001é\"");
}

TEST(TextUtilTest, ScrubSecretsReplacesRegisteredLiteralsOnly) {
  core::secrets::clear_for_testing();
  core::secrets::add("abc123-key");
  core::secrets::add("Bearer tok.en-1");
  EXPECT_EQ(scrub_secrets("servebench profile --api-key abc123-key -m x"),
            "servebench profile --api-key <redacted> -m x");
  EXPECT_EQ(scrub_secrets("--api-key=abc123-key"), "--api-key=<redacted>");
  EXPECT_EQ(scrub_secrets("-H 'Authorization: Bearer tok.en-1'"), "-H 'Authorization: <redacted>'");
  EXPECT_EQ(scrub_secrets("{\"api_key\": \"abc123-key\"}"), "{\"api_key\": \"<redacted>\"}");
  // Prose is never rewritten by pattern (it was: "The bearer <redacted> nobler").
  EXPECT_EQ(scrub_secrets("The bearer looked nobler; the token password api_key: x"),
            "The bearer looked nobler; the token password api_key: x");
  EXPECT_EQ(scrub_secrets("nothing to hide: 42 tokens"), "nothing to hide: 42 tokens");
  core::secrets::clear_for_testing();
}

TEST(TextUtilTest, CsvField) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

}  // namespace
}  // namespace servebench::exporter

namespace servebench::exporter {
namespace {

std::string general(double base, double divisor) {
  std::string s;
  append_json_number(&s, base / divisor);
  return s;
}

std::string scaled(double base, double divisor) {
  std::string s;
  append_scaled_number(&s, base, divisor);
  return s;
}

// The fast path must be byte-identical to the general shortest round-trip text: seeded random
// integers of every magnitude up to 1e15 (log-uniform, and multiples of powers of ten so that
// trailing zeros and the fixed/exponent switch are exercised), negatives, and the edges.
TEST(TextUtilTest, ScaledNumberIsTheShortestRoundTripTextOfTheQuotient) {
  std::mt19937_64 rng(20261201);
  std::uniform_real_distribution<double> exponent(0.0, 15.0);
  std::uniform_int_distribution<int> zeros(0, 14);
  const double divisors[] = {1, 1e3, 1e6, 1e9, 1024};
  size_t checked = 0;
  for (int i = 0; i < 400000; ++i) {
    double base = std::floor(std::pow(10.0, exponent(rng)));
    if (i % 3 == 0) base = std::floor(base / std::pow(10.0, zeros(rng))) * std::pow(10.0, zeros(rng));
    if (i % 7 == 0) base = -base;
    if (!(std::fabs(base) < 1e15)) continue;
    for (double d : divisors) {
      ASSERT_EQ(scaled(base, d), general(base, d)) << std::fixed << base << " / " << d;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000000u);
  for (double base : {0.0, -0.0, 1.0, 5.0, 10.0, 50.0, 100000.0, 1e14, 999999999999999.0,
                      123456789012345.0, 1e15, 1e16, 0.5, 2.5e6, double(NAN), double(INFINITY)}) {
    for (double d : {1.0, 1e3, 1e6, 1e9, 7.0, 1e12, 1024.0}) {
      EXPECT_EQ(scaled(base, d), general(base, d)) << base << " / " << d;
    }
  }
}

std::string written(int64_t v) {
  char buf[32];
  return std::string(buf, write_int(buf, v));
}
std::string reference(int64_t v) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

TEST(TextUtilTest, WriteIntIsToChars) {
  // Every value of every 4-digit group (each lane of the word arithmetic), in 19-digit numbers.
  for (int64_t q = 0; q < 10000; ++q) {
    const int64_t v = 1'000'000'000'000'000'000 + q * 1'000'000'000'000 + q * 100'000'000 + q * 10'000 + q;
    ASSERT_EQ(written(v), reference(v)) << v;
    const int64_t w = v + 7'000'000'000'000'000'000;  // a leading group of 8
    ASSERT_EQ(written(w), reference(w)) << w;
  }
  std::mt19937_64 rng(20261207);
  std::uniform_int_distribution<int> digits(1, 19);
  for (int i = 0; i < 300000; ++i) {
    const int n = digits(rng);
    int64_t v = static_cast<int64_t>(rng() >> 1);
    if (n < 19) v %= static_cast<int64_t>(std::pow(10.0, n));
    if (i % 5 == 0) v = -v;
    ASSERT_EQ(written(v), reference(v)) << v;
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{9'999'999'999'999'999}, int64_t{10'000'000'000'000'000},
                    int64_t{10'000'000'000'000'001}, int64_t{99'999'999'999'999'999},
                    int64_t{100'000'000'000'000'000}, int64_t{1'796'650'105'884'212'853},
                    int64_t{1'000'000'000'000'000'000}, int64_t{9'000'000'000'000'000'009},
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    EXPECT_EQ(written(v), reference(v)) << v;
  }
}

}  // namespace
}  // namespace servebench::exporter
