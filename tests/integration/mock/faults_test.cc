// Every fault kind, by flag and by the X-Mock-Scenario header.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mock_harness.h"

namespace servebench::mock::testing {
namespace {

using nlohmann::json;

const char kStreamBody[] =
    R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":20,"ignore_eos":true,)"
    R"("stream":true,"stream_options":{"include_usage":true}})";
const char kPlainBody[] =
    R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":20,"ignore_eos":true})";

std::map<std::string, std::string> fault(const std::string& kind) {
  return {{"X-Mock-Scenario", "error_rate=100;error_kind=" + kind}};
}

int content_events(const HttpResponse& r) {
  int n = 0;
  for (const SseEvent& e : r.events) {
    if (e.data.find("\"content\":\" ") != std::string::npos) ++n;
  }
  return n;
}

double metric(uint16_t port, const std::string& name) {
  auto m = get(port, "/metrics");
  const size_t at = m.body.find("\n" + name + "{");
  if (at == std::string::npos) return -1;
  const size_t sp = m.body.find("} ", at);
  return std::atof(m.body.c_str() + sp + 2);
}

class MockFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    mock_ = MockProcess::start({"--itl-ms", "1", "--stall-timeout-ms", "400"});
    ASSERT_NE(mock_, nullptr);
  }
  std::unique_ptr<MockProcess> mock_;
};

TEST_F(MockFaults, Http500And429HaveOpenAiErrorBodies) {
  for (const auto& [kind, status] : {std::pair{"http500", 500}, std::pair{"http429", 429}}) {
    for (const char* body : {kStreamBody, kPlainBody}) {
      auto r = post_json(mock_->port(), "/v1/chat/completions", body, fault(kind));
      ASSERT_TRUE(r.complete) << kind;
      EXPECT_EQ(r.status, status);
      json e = json::parse(r.body);
      EXPECT_EQ(e["error"]["code"], status);
      EXPECT_TRUE(e["error"]["message"].is_string());
    }
  }
}

TEST_F(MockFaults, ResetClosesMidStream) {
  auto r = post_json(mock_->port(), "/v1/chat/completions", kStreamBody, fault("reset"));
  EXPECT_EQ(r.status, 200);
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(r.reset || r.eof);
  EXPECT_EQ(content_events(r), 10);  // half the stream, then the connection dies
  auto plain = post_json(mock_->port(), "/v1/chat/completions", kPlainBody, fault("reset"));
  EXPECT_FALSE(plain.complete);
  EXPECT_EQ(plain.status, 0);
  EXPECT_TRUE(plain.eof);
}

TEST_F(MockFaults, StallStopsSendingAndIsCleanedUp) {
  RawClient c(mock_->port());
  c.send_request("POST", "/v1/chat/completions", kStreamBody, fault("stall"));
  auto r = c.read_response(250);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(content_events(r), 10);
  // The server gives up on the stalled connection after --stall-timeout-ms.
  EXPECT_TRUE(c.wait_closed(3'000));
  EXPECT_EQ(metric(mock_->port(), "vllm:num_requests_running"), 0);
}

TEST_F(MockFaults, StallNonStreamingSendsNothing) {
  RawClient c(mock_->port());
  c.send_request("POST", "/v1/chat/completions", kPlainBody, fault("stall"));
  auto r = c.read_response(200);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, 0);
}

TEST_F(MockFaults, MalformedEventAmongValidOnes) {
  auto r = post_json(mock_->port(), "/v1/chat/completions", kStreamBody, fault("malformed"));
  ASSERT_TRUE(r.complete);
  int bad = 0;
  for (const SseEvent& e : r.events) {
    if (e.data == "[DONE]") continue;
    if (json::parse(e.data, nullptr, false).is_discarded()) ++bad;
  }
  EXPECT_EQ(bad, 1);
  EXPECT_EQ(content_events(r), 20);
  EXPECT_EQ(r.events.back().data, "[DONE]");
  auto plain = post_json(mock_->port(), "/v1/chat/completions", kPlainBody, fault("malformed"));
  EXPECT_EQ(plain.status, 200);
  EXPECT_TRUE(json::parse(plain.body, nullptr, false).is_discarded());
}

TEST_F(MockFaults, ErrorEventEndsTheStream) {
  auto r = post_json(mock_->port(), "/v1/chat/completions", kStreamBody, fault("error-event"));
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.status, 200);
  ASSERT_GE(r.events.size(), 2u);
  EXPECT_EQ(r.events.back().data, "[DONE]");
  json err = json::parse(r.events[r.events.size() - 2].data);
  EXPECT_TRUE(err.contains("error"));
  EXPECT_EQ(content_events(r), 10);
  auto plain = post_json(mock_->port(), "/v1/chat/completions", kPlainBody, fault("error_event"));
  EXPECT_EQ(plain.status, 500);
}

TEST_F(MockFaults, ConnectionStaysUsableAfterErrorEvent) {
  RawClient c(mock_->port());
  c.send_request("POST", "/v1/chat/completions", kStreamBody, fault("error-event"));
  ASSERT_TRUE(c.read_response().complete);
  c.send_request("POST", "/v1/chat/completions", kPlainBody);
  auto second = c.read_response();
  ASSERT_TRUE(second.complete);
  EXPECT_EQ(second.status, 200);
}

TEST(MockFaultRate, FlagsApplyToAShareOfRequests) {
  auto mock = MockProcess::start({"--error-rate", "50", "--error-kind", "http429", "--seed", "3"});
  ASSERT_NE(mock, nullptr);
  int failed = 0;
  for (int i = 0; i < 60; ++i) {
    auto r = post_json(mock->port(), "/v1/chat/completions", kPlainBody);
    ASSERT_TRUE(r.complete);
    if (r.status == 429) {
      ++failed;
    } else {
      EXPECT_EQ(r.status, 200);
    }
  }
  EXPECT_GT(failed, 10);
  EXPECT_LT(failed, 50);
  // The header overrides the flag both ways.
  auto ok = post_json(mock->port(), "/v1/chat/completions", kPlainBody,
                      {{"X-Mock-Scenario", "error_rate=0"}});
  EXPECT_EQ(ok.status, 200);
}

TEST(MockScenario, HeaderOverridesLatencyPerRequest) {
  auto mock = MockProcess::start({"--ttft-ms", "3000"});
  ASSERT_NE(mock, nullptr);
  auto fast = post_json(mock->port(), "/v1/chat/completions", kPlainBody,
                        {{"X-Mock-Scenario", "ttft_ms=5;itl_ms=0"}});
  ASSERT_TRUE(fast.complete);
  EXPECT_LT(fast.headers_ns - fast.sent_ns, 1'000'000'000);
  auto bad = post_json(mock->port(), "/v1/chat/completions", kPlainBody,
                       {{"X-Mock-Scenario", "ttft_ms=soon"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(json::parse(bad.body)["error"]["message"].get<std::string>().find("ttft_ms"),
            std::string::npos);
}

TEST(MockScenario, EarlyRoleChunkGoesWithTheHeaders) {
  auto mock = MockProcess::start({"--ttft-ms", "300"});
  ASSERT_NE(mock, nullptr);
  auto r = post_json(mock->port(), "/v1/chat/completions", kStreamBody,
                     {{"X-Mock-Scenario", "early_role=1;output_tokens=2"}});
  ASSERT_TRUE(r.complete);
  ASSERT_GE(r.events.size(), 2u);
  EXPECT_NE(r.events[0].data.find("\"role\""), std::string::npos);
  EXPECT_LT(r.events[0].arrival_ns - r.sent_ns, 150'000'000);  // well before the 300 ms TTFT
  EXPECT_GE(r.events[1].arrival_ns - r.sent_ns, 290'000'000);
  EXPECT_EQ(content_events(r), 2);
}

}  // namespace
}  // namespace servebench::mock::testing
