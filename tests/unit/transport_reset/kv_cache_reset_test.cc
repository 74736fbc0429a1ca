// KV-cache reset (transport/kv_cache_reset.h): URL and path rules, AIPerf's retry schedule on a
// fake clock, and the POST itself against an in-test loopback server (real sockets, no sleeps).
// Timing (a timeout honoured, a refused connection reported quickly) is checked by the
// integration test against servebench-mock (tests/integration/reset).
#include "transport/kv_cache_reset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "unit/transport/test_http_server.h"

namespace servebench::transport {
namespace {

using servebench::testing::TestHttpServer;
constexpr int64_t kS = 1'000'000'000;

bool has_header_line(const TestHttpServer::Request& r, const std::string& line) {
  for (const auto& h : r.headers) {
    if (h.size() != line.size()) continue;
    bool same = true;
    for (size_t i = 0; i < h.size() && same; ++i) same = std::tolower(h[i]) == std::tolower(line[i]);
    if (same) return true;
  }
  return false;
}

TEST(ControlPath, AcceptsRelativePaths) {
  for (const char* p : {"/reset_prefix_cache", "/flush_cache", "/v1/admin/reset?reset_running_requests=true", "/"})
    EXPECT_TRUE(validate_control_path(p)) << p;
}

TEST(ControlPath, RejectsWithOneLineNamingTheFlag) {
  for (const char* p : {"", "reset_prefix_cache", "http://h/reset", "/a://b", "/has space", "/tab\there"}) {
    auto s = validate_control_path(p);
    ASSERT_FALSE(s) << p;
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(s.error().message.find("--reset-kv-cache-path"), std::string::npos) << s.error().message;
    EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
  }
  auto other = validate_control_path("x", "--server-profiler-start-path");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("--server-profiler-start-path"), std::string::npos);
}

TEST(UrlOrigin, KeepsSchemeHostPort) {
  EXPECT_EQ(url_origin("http://127.0.0.1:8000/v1/chat/completions").value(), "http://127.0.0.1:8000");
  EXPECT_EQ(url_origin("http://localhost:8000").value(), "http://localhost:8000");
  EXPECT_EQ(url_origin("localhost:8000/v1").value(), "http://localhost:8000") << "no scheme: http";
  EXPECT_EQ(url_origin("https://api.example.com/v1?x=1#f").value(), "https://api.example.com");
  EXPECT_EQ(url_origin("https://api.example.com:443/v1").value(), "https://api.example.com") << "default port";
  EXPECT_EQ(url_origin("http://user:secret@h:9000/v1").value(), "http://h:9000") << "no user info";
  EXPECT_EQ(url_origin("http://[::1]:8000/v1").value(), "http://[::1]:8000");
}

TEST(UrlOrigin, RejectsOtherSchemes) {
  for (const char* u : {"ftp://h/x", "ws://h:1/"}) {
    auto r = url_origin(u);
    ASSERT_FALSE(r) << u;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find(u), std::string::npos) << r.error().message;
  }
}

// AIPerf: wait 1 s, doubling to at most 8 s; no retry that would start at or after the deadline.
TEST(RetrySchedule, BackoffDoublesToEightSecondsWithinTheBudget) {
  EXPECT_EQ(reset_retry_wait_ns(1, 0, 60 * kS), 1 * kS);
  EXPECT_EQ(reset_retry_wait_ns(2, 1 * kS, 60 * kS), 2 * kS);
  EXPECT_EQ(reset_retry_wait_ns(3, 3 * kS, 60 * kS), 4 * kS);
  EXPECT_EQ(reset_retry_wait_ns(4, 7 * kS, 60 * kS), 8 * kS);
  EXPECT_EQ(reset_retry_wait_ns(5, 15 * kS, 60 * kS), 8 * kS);
  EXPECT_EQ(reset_retry_wait_ns(40, 15 * kS, 60 * kS), 8 * kS) << "no overflow";
  EXPECT_EQ(reset_retry_wait_ns(9, 55 * kS, 60 * kS), -1) << "55 + 8 >= 60";
  EXPECT_EQ(reset_retry_wait_ns(1, 0, 1 * kS), -1) << "0 + 1 >= 1";
  EXPECT_EQ(reset_retry_wait_ns(1, 0, 0), -1) << "no budget";
}

TEST(ResetKvCache, PostsAnEmptyBodyWithTheGivenHeaders) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "", 200);
  });
  auto r = reset_kv_cache(server.url("/v1/chat/completions"), "/reset_prefix_cache", 5 * kS,
                          {"Authorization: Bearer sk-test", "X-Extra: 1"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->http_status, 200);
  EXPECT_EQ(r->url, server.url("/reset_prefix_cache"));
  EXPECT_GT(r->elapsed_ns, 0);
  EXPECT_EQ(r->attempts, 1);
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/reset_prefix_cache");
  EXPECT_EQ(reqs[0].body, "");
  EXPECT_TRUE(has_header_line(reqs[0], "Content-Length: 0"));
  EXPECT_TRUE(has_header_line(reqs[0], "Authorization: Bearer sk-test"));
  EXPECT_TRUE(has_header_line(reqs[0], "X-Extra: 1"));
  EXPECT_FALSE(reqs[0].has_header("content-type")) << "an empty body claims no type";
  EXPECT_FALSE(reqs[0].has_header("expect"));
}

TEST(ResetKvCache, AnyTwoHundredIsSuccessAndQueryPathsPass) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{\"ok\":true}", 202);
  });
  auto r = reset_kv_cache(server.url(""), "/reset_prefix_cache?reset_running_requests=true", 5 * kS, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->http_status, 202);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].path, "/reset_prefix_cache?reset_running_requests=true");
}

TEST(ResetKvCache, UserInfoAuthenticatesButIsNeverShown) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{\"error\":\"user:secret\"}", 500);
  });
  const std::string url = "http://user:secret@127.0.0.1:" + std::to_string(server.port()) + "/v1";
  auto r = reset_kv_cache(url, "/reset_prefix_cache", 5 * kS, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.find("secret"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("HTTP 500"), std::string::npos) << r.error().message;
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(server.requests()[0].has_header("authorization: basic "));
}

TEST(ResetKvCache, NonTwoHundredIsAnErrorNamingUrlAndStatus) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "", 301);
  });
  auto r = reset_kv_cache(server.url(""), "/reset_prefix_cache", 5 * kS, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNetwork);
  EXPECT_NE(r.error().message.find(server.url("/reset_prefix_cache")), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("HTTP 301"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
}

TEST(ResetKvCache, BadPathOrUrlIsAUsageError) {
  auto p = reset_kv_cache("http://127.0.0.1:1", "reset", kS, {});
  ASSERT_FALSE(p);
  EXPECT_TRUE(p.error().is_usage());
  auto u = reset_kv_cache("ftp://127.0.0.1:1", "/reset", kS, {});
  ASSERT_FALSE(u);
  EXPECT_TRUE(u.error().is_usage());
}

// The retry loop on a fake clock: a refused connection fails at once, so the only time that
// passes is the fake sleeps, which must follow AIPerf's schedule within the budget.
TEST(ResetKvCacheAll, RetriesTransportFailuresWithBackoffWithinTheBudget) {
  const int port = servebench::testing::unused_loopback_port();
  core::FakeClock clock;
  std::vector<int64_t> waits;
  auto sleep = [&](int64_t ns) {
    waits.push_back(ns);
    clock.advance_ns(ns);
  };
  KvCacheResetOptions o;
  o.timeout_ns = 5 * kS;
  auto r = reset_kv_cache_all({"http://127.0.0.1:" + std::to_string(port)}, o, &clock, sleep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNetwork);
  EXPECT_NE(r.error().message.find("after 10 attempts"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("127.0.0.1:" + std::to_string(port) + "/reset_prefix_cache"), std::string::npos);
  const std::vector<int64_t> expected = {1 * kS, 2 * kS, 4 * kS, 8 * kS, 8 * kS, 8 * kS, 8 * kS, 8 * kS, 8 * kS};
  EXPECT_EQ(waits, expected);

  waits.clear();
  o.retry_budget_ns = 0;
  auto once = reset_kv_cache_all({"http://127.0.0.1:" + std::to_string(port)}, o, &clock, sleep);
  ASSERT_FALSE(once);
  EXPECT_TRUE(waits.empty());
  EXPECT_EQ(once.error().message.find("attempts"), std::string::npos);
}

TEST(ResetKvCacheAll, AnswersAreNeverRetried) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "", 503);
  });
  core::FakeClock clock;
  int sleeps = 0;
  auto r = reset_kv_cache_all({server.url("/v1")}, KvCacheResetOptions{}, &clock, [&](int64_t) { ++sleeps; });
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("HTTP 503"), std::string::npos);
  EXPECT_EQ(sleeps, 0);
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(ResetKvCacheAll, OnePostPerOriginInOrder) {
  TestHttpServer a([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { TestHttpServer::respond_fixed(c, ""); });
  TestHttpServer b([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { TestHttpServer::respond_fixed(c, ""); });
  KvCacheResetOptions o;
  o.path = "/flush_cache";
  o.headers = {"Authorization: Bearer k"};
  auto r = reset_kv_cache_all({a.url("/v1/chat/completions"), b.url("/v1"), a.url("/v1/completions"),
                               "http://localhost:" + std::to_string(b.port()) + "/other"},
                              o);
  ASSERT_TRUE(r) << r.error().message;
  // localhost and 127.0.0.1 are different origins (as in AIPerf, which compares host:port text).
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].url, a.url("/flush_cache"));
  EXPECT_EQ((*r)[1].url, b.url("/flush_cache"));
  EXPECT_EQ((*r)[2].url, "http://localhost:" + std::to_string(b.port()) + "/flush_cache");
  EXPECT_EQ(a.requests().size(), 1u);
  EXPECT_EQ(b.requests().size(), 2u);
  for (const auto& req : b.requests()) EXPECT_TRUE(req.has_header("authorization: bearer k"));
}

TEST(ResetKvCacheAll, StopsAtTheFirstFailure) {
  TestHttpServer bad([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { TestHttpServer::respond_fixed(c, "", 404); });
  TestHttpServer good([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { TestHttpServer::respond_fixed(c, ""); });
  auto r = reset_kv_cache_all({bad.url(""), good.url("")}, KvCacheResetOptions{});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("HTTP 404"), std::string::npos);
  EXPECT_NE(r.error().message.find("--reset-kv-cache-path"), std::string::npos);
  EXPECT_EQ(good.requests().size(), 0u);
}

TEST(ResetKvCacheAll, BadUrlOrPathFailsBeforeAnyPost) {
  TestHttpServer s([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { TestHttpServer::respond_fixed(c, ""); });
  KvCacheResetOptions o;
  o.path = "no-slash";
  auto r = reset_kv_cache_all({s.url("")}, o);
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().is_usage());
  auto u = reset_kv_cache_all({s.url(""), "ftp://x/"}, KvCacheResetOptions{});
  ASSERT_FALSE(u);
  EXPECT_TRUE(u.error().is_usage());
  EXPECT_EQ(s.requests().size(), 0u);
}

}  // namespace
}  // namespace servebench::transport
