// core::secrets: the harmless-header allow-list, header redaction and the literal registry.
#include "core/secrets.h"

#include <gtest/gtest.h>

#include "core/log.h"

namespace servebench::core::secrets {
namespace {

class SecretsTest : public ::testing::Test {
 protected:
  void SetUp() override { clear_for_testing(); }
  void TearDown() override { clear_for_testing(); }
};

TEST_F(SecretsTest, OnlyAllowListedHeadersAreHarmless) {
  EXPECT_TRUE(is_harmless_header("Content-Type"));
  EXPECT_TRUE(is_harmless_header("accept"));
  EXPECT_TRUE(is_harmless_header(" User-Agent "));
  for (const char* name : {"Authorization", "X-Api-Key", "X-Auth-Token", "X-Access-Token",
                           "X-Session-Token", "Private-Token", "X-Password",
                           "Ocp-Apim-Subscription-Key", "X-Custom-Secret", "Cookie", "X-Anything"})
    EXPECT_FALSE(is_harmless_header(name)) << name;
}

TEST_F(SecretsTest, RedactHeaderLineKeepsNameAndHarmlessValues) {
  EXPECT_EQ(redact_header_line("X-Auth-Token: S1abcdef"), "X-Auth-Token: <redacted>");
  EXPECT_EQ(redact_header_line("Content-Type: application/json"), "Content-Type: application/json");
  EXPECT_EQ(redact_header_line("no colon at all"), "<redacted>");
}

TEST_F(SecretsTest, ScrubReplacesEveryRegisteredLiteral) {
  EXPECT_EQ(scrub("nothing registered: bearer token"), "nothing registered: bearer token");
  add("Bearer tok-123456");
  add("pass-word-9");
  EXPECT_EQ(scrub("a Bearer tok-123456 b tok-123456 c pass-word-9pass-word-9"),
            "a <redacted> b <redacted> c <redacted><redacted>");
  // Words are never rewritten by pattern.
  EXPECT_EQ(scrub("The bearer looked nobler; a token password key"),
            "The bearer looked nobler; a token password key");
}

TEST_F(SecretsTest, ShortValuesAreNotRegistered) {
  add("12345");
  EXPECT_EQ(size(), 0u);
  EXPECT_EQ(scrub("12345"), "12345");
}

TEST_F(SecretsTest, JsonEscapedFormIsRegisteredToo) {
  add("se\"cret/x");
  EXPECT_EQ(scrub(R"({"k":"se\"cret/x"})"), R"({"k":"<redacted>"})");
}

TEST_F(SecretsTest, HeaderValuesRegisterUnlessHarmless) {
  add_header_value("Content-Type: application/json");
  EXPECT_EQ(size(), 0u);
  add_header_value("Ocp-Apim-Subscription-Key: S2-subscription");
  EXPECT_EQ(scrub("key=S2-subscription"), "key=<redacted>");
}

// The logger's formatter scrubs every line, whatever a caller formatted into it.
TEST_F(SecretsTest, LogLinesAreScrubbed) {
  init_logging(1);
  add("log-secret-4711");
  ::testing::internal::CaptureStderr();
  SB_LOG_WARN("server said: bad key log-secret-4711 (the bearer token word stays)");
  spdlog::default_logger()->flush();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.find("log-secret-4711"), std::string::npos) << err;
  EXPECT_NE(err.find("bad key <redacted> (the bearer token word stays)"), std::string::npos) << err;
}

}  // namespace
}  // namespace servebench::core::secrets
