#include "metrics.h"

#include <gtest/gtest.h>

namespace servebench::mock {
namespace {

TEST(MockMetrics, RendersVllmNamesAndCumulativeHistogram) {
  MockMetrics m;
  m.running = 3;
  m.waiting = 2;
  m.prompt_tokens = 100;
  m.generation_tokens = 40;
  m.observe_ttft_ns(3'000'000);          // 0.003 s → le=0.005
  m.observe_ttft_ns(50'000'000);         // 0.05 → le=0.06
  m.observe_ttft_ns(9'000'000'000'000);  // beyond every bucket → only +Inf
  const std::string t = m.render("mock-model");
  EXPECT_NE(t.find("vllm:num_requests_running{model_name=\"mock-model\"} 3\n"), std::string::npos);
  EXPECT_NE(t.find("vllm:num_requests_waiting{model_name=\"mock-model\"} 2\n"), std::string::npos);
  EXPECT_NE(t.find("vllm:prompt_tokens_total{model_name=\"mock-model\"} 100\n"), std::string::npos);
  EXPECT_NE(t.find("vllm:generation_tokens_total{model_name=\"mock-model\"} 40\n"),
            std::string::npos);
  EXPECT_NE(t.find("# TYPE vllm:time_to_first_token_seconds histogram"), std::string::npos);
  EXPECT_NE(t.find("_bucket{model_name=\"mock-model\",le=\"0.001\"} 0\n"), std::string::npos);
  EXPECT_NE(t.find("_bucket{model_name=\"mock-model\",le=\"0.005\"} 1\n"), std::string::npos);
  EXPECT_NE(t.find("_bucket{model_name=\"mock-model\",le=\"0.06\"} 2\n"), std::string::npos);
  EXPECT_NE(t.find("_bucket{model_name=\"mock-model\",le=\"2560\"} 2\n"), std::string::npos);
  EXPECT_NE(t.find("_bucket{model_name=\"mock-model\",le=\"+Inf\"} 3\n"), std::string::npos);
  EXPECT_NE(t.find("vllm:time_to_first_token_seconds_count{model_name=\"mock-model\"} 3\n"),
            std::string::npos);
}

}  // namespace
}  // namespace servebench::mock
