// config/url.h: base URL validation (issue: bad ports silently accepted, query glued before the
// path, user info leaked), request URL joining and Basic auth from user info.
#include "config/url.h"

#include <gtest/gtest.h>

namespace servebench::config {
namespace {

void expect_bad(const std::string& url, const std::string& needle) {
  auto r = parse_base_url(url);
  ASSERT_FALSE(r.has_value()) << "accepted: " << url;
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(r.error().message.find("-u/--url"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
}

std::string ok(const std::string& url) {
  auto r = parse_base_url(url);
  EXPECT_TRUE(r.has_value()) << url << ": " << (r ? "" : r.error().message);
  return r ? r->url : "";
}

TEST(BaseUrl, PortMustBeNumericAndInRange) {
  expect_bad("localhost:99999", "port '99999'");
  expect_bad("http://localhost:abc", "port 'abc'");
  expect_bad("localhost:0", "port '0'");
  expect_bad("localhost:", "port ''");
  expect_bad("localhost:-1", "1 to 65535");
  EXPECT_EQ(ok("localhost:65535"), "http://localhost:65535");
  EXPECT_EQ(ok("localhost:1"), "http://localhost:1");
}

TEST(BaseUrl, HostAndSchemeAreChecked) {
  expect_bad("", "empty");
  expect_bad("ftp://x", "scheme");
  expect_bad("http://", "no host");
  expect_bad("http://:8000", "no host");
  expect_bad("http:///v1", "no host");
  expect_bad("http://a b:1", "space");
  expect_bad("http://h:1/x#frag", "fragment");
  expect_bad("http://::1:8000", "brackets");
  expect_bad("http://ho$t:1", "invalid host");
  expect_bad("http://.:1", "invalid host");
  EXPECT_EQ(ok("HTTPS://h:2/"), "https://h:2");
  EXPECT_EQ(ok("http://[::1]:8000/"), "http://[::1]:8000");
  EXPECT_EQ(ok("127.0.0.1"), "http://127.0.0.1");
}

TEST(BaseUrl, PathIsABaseAndQueryIsKept) {
  EXPECT_EQ(ok("http://h:1/openai/"), "http://h:1/openai");
  EXPECT_EQ(ok("http://h:1?api-version=1"), "http://h:1?api-version=1");
  EXPECT_EQ(ok("http://h:1/base/?api-version=1"), "http://h:1/base?api-version=1");
}

TEST(JoinUrl, QueryGoesAfterTheEndpointPath) {
  EXPECT_EQ(join_url("http://h:1", "/v1/chat/completions"), "http://h:1/v1/chat/completions");
  EXPECT_EQ(join_url("http://h:1?api-version=1", "/v1/chat/completions"),
            "http://h:1/v1/chat/completions?api-version=1");
  EXPECT_EQ(join_url("http://h:1/openai?api-version=1", "/v1/x"),
            "http://h:1/openai/v1/x?api-version=1");
  EXPECT_EQ(join_url("http://h:1?b=2", "/v1/x?a=1"), "http://h:1/v1/x?a=1&b=2");
  EXPECT_EQ(join_url("http://h:1", "v1/x"), "http://h:1/v1/x");
}

TEST(JoinUrl, BasePathPrefixesTheEndpointPathWithoutDoublingIt) {
  // A proxy mount point is a prefix.
  EXPECT_EQ(join_url("http://h:1/proxy", "/v1/chat/completions"),
            "http://h:1/proxy/v1/chat/completions");
  // A base ending in /v1 (the OpenAI SDK's base_url) takes a /v1/ path once.
  EXPECT_EQ(join_url("http://h:1/proxy/v1", "/v1/chat/completions"),
            "http://h:1/proxy/v1/chat/completions");
  EXPECT_EQ(join_url("http://h:1/v1", "/v1/embeddings"), "http://h:1/v1/embeddings");
  EXPECT_EQ(join_url("http://h:1/v1", "/rerank"), "http://h:1/v1/rerank");
  // A base that already is the whole endpoint URL is used as it is.
  EXPECT_EQ(join_url("http://h:1/v1/chat/completions", "/v1/chat/completions"),
            "http://h:1/v1/chat/completions");
  EXPECT_EQ(join_url("http://h:1/x/generate", "/generate"), "http://h:1/x/generate");
  // Only whole segments count: /myv1 is not /v1, /xgenerate does not end with /generate.
  EXPECT_EQ(join_url("http://h:1/myv1", "/v1/x"), "http://h:1/myv1/v1/x");
  EXPECT_EQ(join_url("http://h:1/xgenerate", "/generate"), "http://h:1/xgenerate/generate");
  // A custom path (--endpoint) is joined the same way, queries kept.
  EXPECT_EQ(join_url("http://h:1/v1?k=1", "/v1/custom?a=b"), "http://h:1/v1/custom?a=b&k=1");
  EXPECT_EQ(join_url("http://h:1/api", ""), "http://h:1/api");
}

TEST(BaseUrl, UserInfoBecomesBasicAuthAndLeavesTheUrl) {
  auto r = parse_base_url("http://user:p%40ss@127.0.0.1:9/base");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->url, "http://127.0.0.1:9/base");
  EXPECT_TRUE(r->has_user_info);
  EXPECT_EQ(r->user, "user");
  EXPECT_EQ(r->password, "p@ss");
  EXPECT_EQ(r->basic_auth_header(), "Authorization: Basic " + base64_encode("user:p@ss"));
  auto plain = parse_base_url("http://h:1");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->basic_auth_header(), "");
  expect_bad("http://:pw@h:1", "user name");
}

TEST(BaseUrl, ErrorsNeverEchoUserInfo) {
  auto r = parse_base_url("http://user:hunter2secret@h:99999");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.find("hunter2secret"), std::string::npos) << r.error().message;
  EXPECT_EQ(redact_url("https://u:p@h:1/x@y"), "https://<redacted>@h:1/x@y");
  EXPECT_EQ(redact_url("h:1/x@y"), "h:1/x@y");
}

TEST(Base64, Rfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

// Property: any string parses or yields one usage line; a parsed URL has no user info ('@' may
// still appear in its path or query), parses
// again to itself, and a joined request URL keeps the base's query after the path.
TEST(BaseUrl, RandomTextNeverThrowsAndNormalFormsAreStable) {
  const std::string alphabet = "hH:/?#@[]%.-_0123456789aZ: \t";
  uint64_t state = 2024;
  auto next = [&](size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>((state >> 33) % n);
  };
  const std::vector<std::string> prefixes = {"", "http://", "https://", "ftp://", "http://u:p@"};
  int ok_count = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = prefixes[next(prefixes.size())];
    const size_t n = next(16);
    for (size_t i = 0; i < n; ++i) text.push_back(alphabet[next(alphabet.size())]);
    Result<BaseUrl> r = make_error(ErrorCode::kInternal, "");
    ASSERT_NO_THROW(r = parse_base_url(text)) << text;
    if (!r) {
      EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
      continue;
    }
    ++ok_count;
    const size_t host = r->url.find("://") + 3;
    const std::string authority = r->url.substr(host, r->url.find_first_of("/?#", host) - host);
    EXPECT_EQ(authority.find('@'), std::string::npos) << text << " -> " << r->url;
    auto again = parse_base_url(r->url);
    ASSERT_TRUE(again) << r->url << ": " << again.error().message;
    EXPECT_EQ(again->url, r->url);
    const std::string joined = join_url(r->url, "/v1/x");
    const size_t q = r->url.find('?');
    if (q != std::string::npos) {
      EXPECT_NE(joined.find("/v1/x" + r->url.substr(q)), std::string::npos) << joined;
    }
  }
  EXPECT_GT(ok_count, 100);
}

}  // namespace
}  // namespace servebench::config
