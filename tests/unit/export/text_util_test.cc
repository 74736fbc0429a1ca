#include "export/text_util.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include <gtest/gtest.h>

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
