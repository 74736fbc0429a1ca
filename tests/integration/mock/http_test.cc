// HTTP behaviour: routes, error statuses, keep-alive, connection hygiene, concurrency limits,
// command-line errors.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "mock_harness.h"

namespace servebench::mock::testing {
namespace {

using nlohmann::json;

const char kChat[] = R"({"messages":[{"role":"user","content":"hi there"}],"max_tokens":3})";

int open_fds(pid_t pid) {
  int n = 0;
  DIR* d = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str());
  if (d == nullptr) return -1;
  while (readdir(d) != nullptr) ++n;
  closedir(d);
  return n;
}

double metric(uint16_t port, const std::string& name) {
  auto m = get(port, "/metrics");
  const size_t at = m.body.find("\n" + name + "{");
  if (at == std::string::npos) return -1;
  return std::atof(m.body.c_str() + m.body.find("} ", at) + 2);
}

class MockHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    mock_ = MockProcess::start({"--max-body-bytes", "4096", "--model", "served-x"});
    ASSERT_NE(mock_, nullptr);
  }
  std::unique_ptr<MockProcess> mock_;
};

TEST_F(MockHttp, InvalidJsonIs400WithOpenAiError) {
  auto r = post_json(mock_->port(), "/v1/chat/completions", "{\"messages\": [");
  EXPECT_EQ(r.status, 400);
  json e = json::parse(r.body);
  EXPECT_EQ(e["error"]["code"], 400);
  EXPECT_EQ(e["error"]["type"], "BadRequestError");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("JSON"), std::string::npos);
  auto missing = post_json(mock_->port(), "/v1/chat/completions", R"({"model":"x"})");
  EXPECT_EQ(missing.status, 400);
}

TEST_F(MockHttp, UnknownRouteIs404AndWrongMethod405) {
  auto r = post_json(mock_->port(), "/v1/nothing", "{}");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], 404);
  EXPECT_EQ(get(mock_->port(), "/v1/chat/completions").status, 405);
}

TEST_F(MockHttp, OversizedBodyIs413AndTheClientSeesIt) {
  const std::string big =
      "{\"messages\":[{\"role\":\"user\",\"content\":\"" + std::string(100'000, 'a') + "\"}]}";
  auto r = post_json(mock_->port(), "/v1/chat/completions", big);
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], 413);
  EXPECT_EQ(r.headers["connection"], "close");
  // A body just under the limit is fine.
  const std::string ok = "{\"messages\":[{\"role\":\"user\",\"content\":\"" +
                         std::string(3'000, 'a') + "\"}],\"max_tokens\":2}";
  EXPECT_EQ(post_json(mock_->port(), "/v1/chat/completions", ok).status, 200);
}

TEST_F(MockHttp, GarbageRequestIs400) {
  RawClient c(mock_->port());
  c.send_raw("THIS IS NOT HTTP\r\n\r\n");
  auto r = c.read_response(3'000);
  EXPECT_EQ(r.status, 400);
}

TEST_F(MockHttp, ModelsHealthMetricsAndResetPrefixCache) {
  auto models = get(mock_->port(), "/v1/models");
  EXPECT_EQ(models.status, 200);
  json m = json::parse(models.body);
  EXPECT_EQ(m["object"], "list");
  EXPECT_EQ(m["data"][0]["id"], "served-x");
  EXPECT_EQ(get(mock_->port(), "/health").status, 200);
  EXPECT_EQ(post_json(mock_->port(), "/reset_prefix_cache", "").status, 200);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(
        post_json(
            mock_->port(), "/v1/chat/completions",
            R"({"messages":[{"role":"user","content":"a b c d"}],"max_tokens":5,"ignore_eos":true})")
            .status,
        200);
  }
  auto metrics = get(mock_->port(), "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_EQ(metrics.headers["content-type"].rfind("text/plain", 0), 0u);
  EXPECT_EQ(metric(mock_->port(), "vllm:prompt_tokens_total"), 12);
  EXPECT_EQ(metric(mock_->port(), "vllm:generation_tokens_total"), 15);
  EXPECT_EQ(metric(mock_->port(), "vllm:num_requests_running"), 0);
  EXPECT_EQ(metric(mock_->port(), "vllm:num_requests_waiting"), 0);
  EXPECT_EQ(metric(mock_->port(), "vllm:time_to_first_token_seconds_count"), 3);
  EXPECT_NE(metrics.body.find(
                "vllm:time_to_first_token_seconds_bucket{model_name=\"served-x\",le=\"+Inf\"} 3"),
            std::string::npos);
}

TEST_F(MockHttp, KeepAliveServesManyRequestsOnOneConnection) {
  RawClient c(mock_->port());
  for (int i = 0; i < 5; ++i) {
    c.send_request("POST", "/v1/chat/completions", kChat);
    auto r = c.read_response();
    ASSERT_TRUE(r.complete) << i;
    EXPECT_EQ(r.status, 200);
  }
  // Pipelined: two requests in one write, two responses in order.
  const std::string pipelined_body = R"({"prompt":"a","max_tokens":2})";
  const std::string one = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                          std::to_string(pipelined_body.size()) + "\r\n\r\n" + pipelined_body;
  c.send_raw(one + one);
  EXPECT_EQ(c.read_response().status, 200);
  EXPECT_EQ(c.read_response().status, 200);
  c.send_request("POST", "/v1/chat/completions", kChat, {{"Connection", "close"}});
  auto last = c.read_response();
  EXPECT_EQ(last.status, 200);
  EXPECT_EQ(last.headers["connection"], "close");
  EXPECT_TRUE(c.wait_closed(2'000));
}

TEST_F(MockHttp, Expect100ContinueIsAnswered) {
  RawClient c(mock_->port());
  c.send_raw(
      std::string("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n") +
      "Content-Length: " + std::to_string(sizeof(kChat) - 1) + "\r\n\r\n");
  auto interim = c.read_response(500);  // the harness skips the 100 and keeps waiting
  EXPECT_EQ(interim.status, 0);
  EXPECT_TRUE(interim.timed_out);
  c.send_raw(kChat);
  auto r = c.read_response();
  EXPECT_EQ(r.status, 200);
}

TEST_F(MockHttp, NoConnectionLeaks) {
  const int baseline = open_fds(mock_->pid());
  ASSERT_GT(baseline, 0);
  {
    std::vector<std::unique_ptr<RawClient>> clients;
    for (int i = 0; i < 40; ++i) {
      clients.push_back(std::make_unique<RawClient>(mock_->port()));
      switch (i % 4) {
        case 0:
          clients.back()->send_raw("POST /v1/chat/completions HTTP/1.1\r\nContent-Le");
          break;
        case 1:
          clients.back()->send_request("POST", "/v1/chat/completions", kChat);
          break;
        case 2:
          clients.back()->send_request(
              "POST", "/v1/chat/completions",
              R"({"messages":[{"role":"user","content":"x"}],"max_tokens":50,"ignore_eos":true,"stream":true})",
              {{"X-Mock-Scenario", "itl_ms=20"}});
          break;
        default:
          break;  // connect only
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }  // every client closes abruptly, some mid-stream
  int now = -1;
  for (int i = 0; i < 100; ++i) {  // streams notice the close at their next write (≤ 20 ms)
    now = open_fds(mock_->pid());
    if (now == baseline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(now, baseline);
  EXPECT_EQ(metric(mock_->port(), "vllm:num_requests_running"), 0);
  EXPECT_EQ(post_json(mock_->port(), "/v1/chat/completions", kChat).status, 200);
}

TEST(MockHttpLimits, RecoversFromDescriptorExhaustion) {
  auto mock = MockProcess::start({}, 32);
  ASSERT_NE(mock, nullptr);
  {
    std::vector<std::unique_ptr<RawClient>> flood;
    for (int i = 0; i < 64; ++i) flood.push_back(std::make_unique<RawClient>(mock->port()));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto r = post_json(mock->port(), "/v1/chat/completions", kChat, {}, 3'000);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(mock->stop(), 0);
}

TEST(MockConcurrency, MaxConcurrencyQueuesTheRest) {
  auto mock = MockProcess::start({"--max-concurrency", "1", "--ttft-ms", "150"});
  ASSERT_NE(mock, nullptr);
  std::vector<HttpResponse> out(3);
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back(
        [&, i] { out[i] = post_json(mock->port(), "/v1/chat/completions", kChat); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_EQ(metric(mock->port(), "vllm:num_requests_running"), 1);
  EXPECT_EQ(metric(mock->port(), "vllm:num_requests_waiting"), 2);
  for (auto& t : threads) t.join();
  std::vector<int64_t> latency_ms;
  for (const HttpResponse& r : out) {
    EXPECT_EQ(r.status, 200);
    latency_ms.push_back((r.headers_ns - r.sent_ns) / 1'000'000);
  }
  std::sort(latency_ms.begin(), latency_ms.end());
  EXPECT_GE(latency_ms[0], 145);
  EXPECT_GE(latency_ms[1], 295);  // served one after another
  EXPECT_GE(latency_ms[2], 445);
}

TEST(MockConcurrency, ManyThreadsManyStreams) {
  auto mock = MockProcess::start({"--threads", "4", "--itl-ms", "2"});
  ASSERT_NE(mock, nullptr);
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 32; ++i) {
    threads.emplace_back([&] {
      RawClient c(mock->port());
      for (int k = 0; k < 3; ++k) {
        c.send_request(
            "POST", "/v1/chat/completions",
            R"({"messages":[{"role":"user","content":"x"}],"max_tokens":10,"ignore_eos":true,"stream":true})");
        auto r = c.read_response();
        if (r.complete && r.events.size() == 12 && r.events.back().data == "[DONE]") ++good;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(good.load(), 96);
}

TEST(MockCommandLine, BadFlagsExitTwoWithOneLine) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--bogus"},
        {"--port", "x"},
        {"--error-kind", "boom"},
        {"--corpus", "/nonexistent/corpus.txt"},
        {"--host", "not-an-ip"},
        {"--record-requests", "/nonexistent/dir/file.jsonl"}}) {
    auto r = run_mock_to_exit(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_LT(r.wall_ns, 1'000'000'000);
    EXPECT_TRUE(r.stdout_text.empty());
  }
  auto help = run_mock_to_exit({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.stdout_text.find("whitespace-separated words"), std::string::npos);
}

TEST(MockCommandLine, PortInUseIsExitTwo) {
  auto first = MockProcess::start({});
  ASSERT_NE(first, nullptr);
  auto r = run_mock_to_exit({"--port", std::to_string(first->port())});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--port"), std::string::npos);
}

TEST(MockCommandLine, StopsCleanlyOnSigterm) {
  auto mock = MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  RawClient idle(mock->port());  // an open connection must not block shutdown
  EXPECT_EQ(mock->stop(), 0);
}

}  // namespace
}  // namespace servebench::mock::testing
