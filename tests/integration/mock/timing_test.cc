// Timing as a plain HTTP client sees it, and against the server's ground truth. Tolerances
// allow for a loaded 2-core machine: medians over several requests.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "mock_harness.h"

namespace servebench::mock::testing {
namespace {

using nlohmann::json;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

const char kBody20[] =
    R"({"model":"m","messages":[{"role":"user","content":"time me"}],"max_tokens":20,)"
    R"("ignore_eos":true,"stream":true})";

// The issue's example: --ttft-ms 50 --itl-ms 10, 20 tokens: first ≈ 50 ms, last ≈ 240 ms.
TEST(MockTiming, TtftAndLastTokenAsAPlainClientSeesThem) {
  const std::string truth = temp_path("timing_truth.jsonl");
  auto mock = MockProcess::start({"--ttft-ms", "50", "--itl-ms", "10", "--ground-truth", truth});
  ASSERT_NE(mock, nullptr);
  std::vector<double> first_ms, last_ms, gap_ms;
  const int kRuns = 7;
  for (int run = 0; run < kRuns; ++run) {
    auto r = post_json(mock->port(), "/v1/chat/completions", kBody20);
    ASSERT_TRUE(r.complete);
    std::vector<int64_t> arrivals;
    for (const SseEvent& e : r.events) {
      if (e.data.find("\"content\":\" ") != std::string::npos) arrivals.push_back(e.arrival_ns);
    }
    ASSERT_EQ(arrivals.size(), 20u);
    first_ms.push_back(static_cast<double>(arrivals.front() - r.sent_ns) / 1e6);
    last_ms.push_back(static_cast<double>(arrivals.back() - r.sent_ns) / 1e6);
    for (size_t i = 1; i < arrivals.size(); ++i) {
      gap_ms.push_back(static_cast<double>(arrivals[i] - arrivals[i - 1]) / 1e6);
    }
  }
  std::printf(
      "client-side medians over %d requests: first token %.3f ms, last %.3f ms, gap %.3f ms\n",
      kRuns, median(first_ms), median(last_ms), median(gap_ms));
  EXPECT_NEAR(median(first_ms), 50.0, 2.0);
  EXPECT_NEAR(median(last_ms), 240.0, 2.0);
  EXPECT_NEAR(median(gap_ms), 10.0, 1.0);

  // Server side: every write at or after its due time, the median within 0.5 ms of it.
  auto lines = read_lines(truth, kRuns);
  ASSERT_EQ(lines.size(), static_cast<size_t>(kRuns));
  std::vector<double> late_ms;
  for (const std::string& line : lines) {
    json g = json::parse(line);
    const int64_t admitted = g["admitted_steady_ns"];
    int index = 0;
    for (const json& c : g["chunks"]) {
      if (c["kind"] != "content") continue;
      const int64_t due = c["due_steady_ns"];
      EXPECT_EQ(due - admitted, 50'000'000 + int64_t{index} * 10'000'000);
      EXPECT_GE(c["steady_ns"].get<int64_t>(), due);
      late_ms.push_back(static_cast<double>(c["steady_ns"].get<int64_t>() - due) / 1e6);
      ++index;
    }
    EXPECT_EQ(index, 20);
  }
  std::printf("server-side write lateness: median %.3f ms\n", median(late_ms));
  EXPECT_LT(median(late_ms), 0.5);
  mock->stop();
  unlink(truth.c_str());
}

TEST(MockTiming, PrefillCostAndJitterFollowTheModel) {
  const std::string truth = temp_path("model_truth.jsonl");
  auto mock = MockProcess::start(
      {"--ttft-ms", "5", "--prefill-us-per-token", "200", "--ground-truth", truth});
  ASSERT_NE(mock, nullptr);
  std::string prompt;
  for (int i = 0; i < 100; ++i) prompt += "word ";
  const std::string body = R"({"messages":[{"role":"user","content":")" + prompt +
                           R"("}],"max_tokens":200,"ignore_eos":true,"stream":true})";
  auto r = post_json(mock->port(), "/v1/chat/completions", body,
                     {{"X-Mock-Scenario", "itl_ms=1;jitter_cv=0"}});
  ASSERT_TRUE(r.complete);
  auto r2 = post_json(mock->port(), "/v1/chat/completions", body,
                      {{"X-Mock-Scenario", "itl_ms=1;jitter_cv=0.5;prefill_us_per_token=0"}});
  ASSERT_TRUE(r2.complete);
  auto lines = read_lines(truth, 2);
  ASSERT_EQ(lines.size(), 2u);
  json exact = json::parse(lines[0]);
  const int64_t admitted = exact["admitted_steady_ns"];
  // ttft = 5 ms + 100 tokens × 200 µs = 25 ms; then exactly 1 ms per token.
  EXPECT_EQ(exact["chunks"][1]["due_steady_ns"].get<int64_t>() - admitted, 25'000'000);
  EXPECT_EQ(exact["chunks"][2]["due_steady_ns"].get<int64_t>() - admitted, 26'000'000);
  json jit = json::parse(lines[1]);
  std::vector<double> gaps;
  int64_t prev = -1;
  for (const json& c : jit["chunks"]) {
    if (c["kind"] != "content") continue;
    const int64_t due = c["due_steady_ns"];
    if (prev >= 0) gaps.push_back(static_cast<double>(due - prev));
    prev = due;
  }
  ASSERT_EQ(gaps.size(), 199u);
  double mean = 0, var = 0;
  for (double g : gaps) mean += g;
  mean /= static_cast<double>(gaps.size());
  for (double g : gaps) var += (g - mean) * (g - mean);
  const double cv = std::sqrt(var / static_cast<double>(gaps.size())) / mean;
  EXPECT_NEAR(mean, 1e6, 0.15e6);
  EXPECT_NEAR(cv, 0.5, 0.15);
  mock->stop();
  unlink(truth.c_str());
}

}  // namespace
}  // namespace servebench::mock::testing
