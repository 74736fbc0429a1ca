// The control client (control/control_client.h) against the in-test loopback server: methods,
// headers, redirects only when asked, no proxy from the environment, bounded answers, connection
// reuse, and an immediate stop once the interrupt flag is up.
#include "control/control_client.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

#include "core/interrupt.h"
#include "unit/transport/test_http_server.h"

namespace servebench::control {
namespace {

using servebench::testing::TestHttpServer;

void respond_with_headers(TestHttpServer::Conn& c, int status, const std::string& extra,
                          const std::string& body) {
  c.write("HTTP/1.1 " + std::to_string(status) +
          " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra + "\r\n" + body);
}

TEST(ControlClient, GetReturnsStatusBodyAndHeaders) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    respond_with_headers(c, 200, "X-Repo-Commit: abc\r\nETag:  \"e1\" \r\n", "hello");
  });
  ControlRequest req;
  req.url = server.url("/metrics");
  req.headers = {"Authorization: Bearer t0k"};
  auto r = fetch_once(req);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->http_status, 200);
  EXPECT_EQ(r->body, "hello");
  EXPECT_EQ(r->header("x-repo-commit"), "abc");
  EXPECT_EQ(r->header("etag"), "\"e1\"") << "names lower-cased, values trimmed";
  EXPECT_GT(r->elapsed_ns, 0);
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_TRUE(reqs[0].has_header("authorization: bearer t0k"));
  EXPECT_TRUE(reqs[0].has_header("user-agent: servebench"));
}

TEST(ControlClient, NonSuccessStatusIsAResponse) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "nope", 404);
  });
  ControlRequest req;
  req.url = server.url("/x");
  auto r = fetch_once(req);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->http_status, 404);
}

TEST(ControlClient, PostWithABodyAndWithout) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "", 200);
  });
  ControlRequest req;
  req.method = Method::kPost;
  req.url = server.url("/reset");
  req.keep_body = false;
  ASSERT_TRUE(fetch_once(req));
  req.body = "{\"a\":1}";
  req.headers = {"Content-Type: application/json"};
  ASSERT_TRUE(fetch_once(req));
  const auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].body, "");
  EXPECT_FALSE(reqs[0].has_header("content-type")) << "an empty body claims no type";
  EXPECT_FALSE(reqs[0].has_header("expect"));
  EXPECT_EQ(reqs[1].body, "{\"a\":1}");
  EXPECT_TRUE(reqs[1].has_header("content-type: application/json"));
}

TEST(ControlClient, RedirectsOnlyWhenAsked) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request& r) {
    if (r.path == "/old")
      respond_with_headers(c, 302, "Location: /new\r\nX-Linked-Etag: first\r\n", "");
    else
      respond_with_headers(c, 200, "ETag: second\r\n", "moved here");
  });
  ControlRequest req;
  req.url = server.url("/old");
  auto stay = fetch_once(req);
  ASSERT_TRUE(stay) << stay.error().message;
  EXPECT_EQ(stay->http_status, 302);
  req.max_redirects = 2;
  auto go = fetch_once(req);
  ASSERT_TRUE(go) << go.error().message;
  EXPECT_EQ(go->http_status, 200);
  EXPECT_EQ(go->body, "moved here");
  EXPECT_EQ(go->header("x-linked-etag"), "") << "header() reads the last answer";
  EXPECT_EQ(go->header("etag"), "second");
  ASSERT_GE(go->headers.size(), 2u);
  EXPECT_EQ(go->headers.front().response, 0);
  EXPECT_EQ(go->headers.back().response, 1);
}

TEST(ControlClient, IgnoresEnvironmentProxiesUnlessAsked) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "direct", 200);
  });
  ::setenv("http_proxy", "http://127.0.0.1:1", 1);  // nothing listens on port 1
  ControlRequest req;
  req.url = server.url("/x");
  req.timeout_ns = 5'000'000'000;
  auto direct = fetch_once(req);
  req.use_env_proxy = true;
  auto proxied = fetch_once(req);
  ::unsetenv("http_proxy");
  ASSERT_TRUE(direct) << direct.error().message;
  EXPECT_EQ(direct->body, "direct");
  ASSERT_FALSE(proxied) << "libcurl should have tried the dead proxy";
  EXPECT_EQ(proxied.error().code, ErrorCode::kNetwork);
}

TEST(ControlClient, AnswersOverTheLimitFail) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, std::string(4096, 'x'), 200);
  });
  ControlRequest req;
  req.url = server.url("/big");
  req.max_body_bytes = 1000;
  auto r = fetch_once(req);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNetwork);
  EXPECT_NE(r.error().message.find("1000"), std::string::npos) << r.error().message;
  req.keep_body = false;
  EXPECT_TRUE(fetch_once(req)) << "a drained body has no limit";
  // A body streamed through on_body (a download to disk) is capped by max_streamed_bytes.
  size_t streamed = 0;
  req.on_body = [&](std::string_view piece) { streamed += piece.size(); };
  req.max_streamed_bytes = 4096;
  EXPECT_TRUE(fetch_once(req)) << "exactly the cap passes";
  EXPECT_EQ(streamed, 4096u);
  req.max_streamed_bytes = 1000;
  streamed = 0;
  auto capped = fetch_once(req);
  ASSERT_FALSE(capped);
  EXPECT_EQ(capped.error().code, ErrorCode::kNetwork);
  EXPECT_NE(capped.error().message.find("larger than 1000 bytes"), std::string::npos) << capped.error().message;
  EXPECT_LE(streamed, 1000u) << "nothing past the cap reaches the sink";
}

TEST(ControlClient, OneClientReusesItsConnection) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "ok", 200);
  });
  ControlClient client;
  ControlRequest req;
  req.url = server.url("/a");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(client.fetch(req));
  EXPECT_EQ(server.accepts(), 1);
}

TEST(ControlClient, RefusedConnectionIsANetworkError) {
  ControlRequest req;
  req.url = "http://127.0.0.1:1/x";
  auto r = fetch_once(req);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNetwork);
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
}

TEST(ControlClient, InterruptStopsBeforeAnyRequest) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "ok", 200);
  });
  core::request_interrupt(2);
  ControlRequest req;
  req.url = server.url("/a");
  auto r = fetch_once(req);
  core::reset_interrupt_for_test();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInterrupted);
  EXPECT_EQ(server.requests().size(), 0u);
}

// The server raises the flag when the request arrives and never answers: the transfer must end
// (libcurl's progress callback sees the flag; it runs about once a second while idle) instead of
// waiting out the 60 s timeout.
TEST(ControlClient, InterruptAbortsATransferInFlight) {
  TestHttpServer server([](TestHttpServer::Conn&, const TestHttpServer::Request&) {
    core::request_interrupt(15);
  });
  ControlRequest req;
  req.url = server.url("/hang");
  req.timeout_ns = 60'000'000'000;
  auto r = fetch_once(req);
  core::reset_interrupt_for_test();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInterrupted) << r.error().message;
  EXPECT_EQ(server.requests().size(), 1u);
}

}  // namespace
}  // namespace servebench::control
