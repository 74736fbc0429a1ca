// ApiServer over a real loopback socket: routes, 404, 405, bad request lines, a port already in
// use, and the request-line parser.
#include "live/api_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace servebench::live {
namespace {

std::string exchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    ::close(fd);
    return "";
  }
  [[maybe_unused]] ssize_t w = ::send(fd, request.data(), request.size(), 0);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof(buf), 0)) > 0) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

ApiResponse handler(const std::string& path) {
  if (path == "/healthz") return {200, "application/json", "{\"status\":\"ok\"}"};
  return {404, "application/json", "{}"};
}

TEST(ApiServer, ServesRoutesAndErrors) {
  auto server = ApiServer::start("127.0.0.1", 0, handler);
  ASSERT_TRUE(server.has_value()) << server.error().message;
  const int port = (*server)->port();
  ASSERT_GT(port, 0);
  const std::string ok = exchange(port, "GET /healthz?x=1 HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_EQ(ok.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << ok;
  EXPECT_NE(ok.find("Content-Length: 15\r\n"), std::string::npos);
  EXPECT_NE(ok.find("\r\n\r\n{\"status\":\"ok\"}"), std::string::npos);
  EXPECT_EQ(exchange(port, "GET /nope HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(exchange(port, "POST /healthz HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(exchange(port, "garbage\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  const std::string head = exchange(port, "HEAD /healthz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "");
}

TEST(ApiServer, PortInUseIsAUsageErrorNamingTheFlag) {
  auto first = ApiServer::start("127.0.0.1", 0, handler);
  ASSERT_TRUE(first.has_value());
  auto second = ApiServer::start("127.0.0.1", (*first)->port(), handler);
  ASSERT_FALSE(second.has_value());
  EXPECT_TRUE(second.error().is_usage());
  EXPECT_NE(second.error().message.find("--api-port"), std::string::npos);
  auto bad_host = ApiServer::start("no such host.invalid", 0, handler);
  ASSERT_FALSE(bad_host.has_value());
  EXPECT_NE(bad_host.error().message.find("--api-host"), std::string::npos);
}

TEST(ApiServer, RequestLineParser) {
  std::string m, p;
  EXPECT_TRUE(parse_request_line("GET /api/metrics?a=b HTTP/1.1\r\n", &m, &p));
  EXPECT_EQ(m, "GET");
  EXPECT_EQ(p, "/api/metrics");
  EXPECT_FALSE(parse_request_line("GET /x HTTP/1.1", &m, &p));  // incomplete
  EXPECT_FALSE(parse_request_line("GET x HTTP/1.1\r\n", &m, &p));
  EXPECT_FALSE(parse_request_line("GET /x FTP\r\n", &m, &p));
}

}  // namespace
}  // namespace servebench::live
