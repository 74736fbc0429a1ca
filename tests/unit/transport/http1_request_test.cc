#include "transport/http1_request.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>

namespace servebench::transport {
namespace {

TEST(Http1Request, ResolvesLiteralsAndDefaultsThePort) {
  auto a = resolve_http_url("http://127.0.0.1:8123/v1/chat/completions");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->host_header, "127.0.0.1:8123");
  ASSERT_EQ(a->addr.ss_family, AF_INET);
  EXPECT_EQ(ntohs(reinterpret_cast<sockaddr_in*>(&a->addr)->sin_port), 8123);
  auto b = resolve_http_url("http://127.0.0.1");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(ntohs(reinterpret_cast<sockaddr_in*>(&b->addr)->sin_port), 80);
  auto v6 = resolve_http_url("http://[::1]:9000/x");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->host_header, "[::1]:9000");
  EXPECT_EQ(v6->addr.ss_family, AF_INET6);
}

TEST(Http1Request, RejectsWhatItCannotServe) {
  for (const char* bad : {"https://127.0.0.1/", "ftp://x/", "http://user@127.0.0.1/", "http:///path", "http://[::1/"}) {
    auto r = resolve_http_url(bad);
    EXPECT_FALSE(r.has_value()) << bad;
  }
}

TEST(Http1Request, WireFormat) {
  HttpRequest r;
  r.url = "http://h:1/v1/completions?a=b";
  r.body = "{\"x\":1}";
  r.headers = {"Authorization: Bearer t"};
  std::string wire;
  build_http1_request(r, "h:1", &wire);
  EXPECT_EQ(wire,
            "POST /v1/completions?a=b HTTP/1.1\r\nHost: h:1\r\nAuthorization: Bearer t\r\n"
            "Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"x\":1}");
  HttpRequest g;
  g.url = "http://h";
  g.method = "GET";
  g.headers = {"content-type: text/plain"};
  std::string gw;
  build_http1_request(g, "h", &gw);
  EXPECT_EQ(gw, "GET / HTTP/1.1\r\nHost: h\r\ncontent-type: text/plain\r\n\r\n");
}

}  // namespace
}  // namespace servebench::transport
