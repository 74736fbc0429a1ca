// KV-cache reset against servebench-mock (POST /reset_prefix_cache -> 200, unknown routes ->
// 404), a refused port and a listener that never answers.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include <gtest/gtest.h>

#include "integration/profile/harness.h"
#include "transport/kv_cache_reset.h"

namespace servebench::transport {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kS = 1'000'000'000;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A loopback socket bound to an ephemeral port; listening (connections complete in the kernel
// and are never accepted or answered) or, with listen_too = false, closed again (refused).
class LoopbackPort {
 public:
  explicit LoopbackPort(bool listen_too) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return;
    port_ = ntohs(a.sin_port);
    if (listen_too) {
      ::listen(fd_, 16);
    } else {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~LoopbackPort() {
    if (fd_ >= 0) ::close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(ResetIntegration, MockAnswers200) {
  itest::Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r = reset_kv_cache(mock.url() + "/v1/chat/completions", "/reset_prefix_cache", 5 * kS,
                          {"Authorization: Bearer sk-x"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->http_status, 200);
  EXPECT_EQ(r->url, mock.url() + "/reset_prefix_cache");

  KvCacheResetOptions o;
  auto all = reset_kv_cache_all({mock.url() + "/v1/chat/completions", mock.url() + "/v1/completions"}, o);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 1u) << "one POST per origin";
  EXPECT_EQ((*all)[0].attempts, 1);
}

TEST(ResetIntegration, UnknownPathIsReportedWithItsStatus) {
  itest::Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  KvCacheResetOptions o;
  o.path = "/flush_cache";  // SGLang's name; the mock only knows vLLM's
  auto r = reset_kv_cache_all({mock.url()}, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNetwork);
  EXPECT_NE(r.error().message.find(mock.url() + "/flush_cache"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("HTTP 404"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.find("attempts"), std::string::npos) << "an answer is not retried";
}

TEST(ResetIntegration, RefusedConnectionIsReportedQuickly) {
  LoopbackPort closed(false);
  const int64_t t0 = now_ns();
  auto r = reset_kv_cache(closed.url(), "/reset_prefix_cache", 30 * kS, {});
  const int64_t took = now_ns() - t0;
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNetwork);
  EXPECT_NE(r.error().message.find(closed.url() + "/reset_prefix_cache"), std::string::npos) << r.error().message;
  EXPECT_LT(took, 2 * kS) << "a refused connection must not wait for the timeout";
}

TEST(ResetIntegration, TimeoutIsHonoured) {
  LoopbackPort silent(true);
  const int64_t t0 = now_ns();
  auto r = reset_kv_cache(silent.url(), "/reset_prefix_cache", 300 * kMs, {});
  const int64_t took = now_ns() - t0;
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kTimeout);
  EXPECT_NE(r.error().message.find("0.3 s"), std::string::npos) << r.error().message;
  EXPECT_GE(took, 290 * kMs);
  EXPECT_LT(took, 3 * kS);
}

// Real sleeps: a 1.5 s budget allows one retry after 1 s (the next would start at 1 + 2 s).
TEST(ResetIntegration, RetryWaitsOneSecondWithinABudget) {
  LoopbackPort closed(false);
  KvCacheResetOptions o;
  o.timeout_ns = 1 * kS;
  o.retry_budget_ns = 1500 * kMs;
  const int64_t t0 = now_ns();
  auto r = reset_kv_cache_all({closed.url()}, o);
  const int64_t took = now_ns() - t0;
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("after 2 attempts"), std::string::npos) << r.error().message;
  EXPECT_GE(took, 1 * kS);
  EXPECT_LT(took, 4 * kS);
}

}  // namespace
}  // namespace servebench::transport
