// --record-requests and --ground-truth files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "mock_harness.h"

namespace servebench::mock::testing {
namespace {

using nlohmann::json;

TEST(MockFiles, RecordRequestsHasOneLinePerRequest) {
  const std::string path = temp_path("record.jsonl");
  auto mock = MockProcess::start({"--record-requests", path});
  ASSERT_NE(mock, nullptr);
  const std::string chat =
      R"({"model":"qwen","messages":[{"role":"system","content":"a b"},)"
      R"({"role":"user","content":"c d e"}],"max_completion_tokens":9,"ignore_eos":true,)"
      R"("min_tokens":2,"stream":true})";
  auto r1 = post_json(mock->port(), "/v1/chat/completions", chat,
                      {{"X-Request-ID", "req-1"}, {"X-Correlation-ID", "corr-1"}});
  ASSERT_TRUE(r1.complete);
  auto r2 = post_json(mock->port(), "/v1/completions", R"({"prompt":"x y","max_tokens":3})");
  ASSERT_TRUE(r2.complete);
  auto lines = read_lines(path, 2);
  ASSERT_EQ(lines.size(), 2u);
  json a = json::parse(lines[0]);
  EXPECT_EQ(a["path"], "/v1/chat/completions");
  EXPECT_EQ(a["body_bytes"], chat.size());
  EXPECT_EQ(a["model"], "qwen");
  EXPECT_EQ(a["max_tokens"], 9);
  EXPECT_EQ(a["ignore_eos"], true);
  EXPECT_EQ(a["min_tokens"], 2);
  EXPECT_EQ(a["stream"], true);
  EXPECT_EQ(a["num_messages"], 2);
  EXPECT_EQ(a["roles"], json({"system", "user"}));
  EXPECT_EQ(a["message_prompt_tokens"], json({2, 3}));
  EXPECT_EQ(a["prompt_tokens"], 5);
  EXPECT_EQ(a["x_request_id"], "req-1");
  EXPECT_EQ(a["x_correlation_id"], "corr-1");
  EXPECT_GT(a["received_wall_ns"].get<int64_t>(), 1'600'000'000'000'000'000);
  json b = json::parse(lines[1]);
  EXPECT_EQ(b["path"], "/v1/completions");
  EXPECT_EQ(b["max_tokens"], 3);
  EXPECT_EQ(b["ignore_eos"], false);
  EXPECT_EQ(b["num_messages"], 0);
  EXPECT_EQ(b["prompt_tokens"], 2);
  EXPECT_EQ(b["x_request_id"], "");
  mock->stop();
  unlink(path.c_str());
}

TEST(MockFiles, GroundTruthHasEveryWrite) {
  const std::string path = temp_path("truth.jsonl");
  auto mock = MockProcess::start({"--ground-truth", path, "--ttft-ms", "20", "--itl-ms", "5"});
  ASSERT_NE(mock, nullptr);
  const std::string body =
      R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":6,"ignore_eos":true,)"
      R"("stream":true,"stream_options":{"include_usage":true}})";
  const int64_t before_wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  auto r = post_json(mock->port(), "/v1/chat/completions", body, {{"X-Request-ID", "gt-1"}});
  ASSERT_TRUE(r.complete);
  auto nonstream = post_json(mock->port(), "/v1/chat/completions",
                             R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":2})");
  ASSERT_TRUE(nonstream.complete);
  auto lines = read_lines(path, 2);
  ASSERT_EQ(lines.size(), 2u);
  json g = json::parse(lines[0]);
  EXPECT_EQ(g["x_request_id"], "gt-1");
  EXPECT_EQ(g["outcome"], "ok");
  EXPECT_EQ(g["tokens_written"], 6);
  const int64_t received = g["received_steady_ns"];
  const int64_t headers = g["headers_steady_ns"];
  EXPECT_LE(received, headers);
  EXPECT_LE(r.sent_ns - 50'000'000, received);  // same steady clock, same machine
  EXPECT_LE(received, r.headers_ns);
  EXPECT_NEAR(static_cast<double>(g["received_wall_ns"].get<int64_t>()),
              static_cast<double>(before_wall), 2e9);
  const json& chunks = g["chunks"];
  // role, 6 content events, usage, done
  ASSERT_EQ(chunks.size(), 9u);
  EXPECT_EQ(chunks[0]["kind"], "role");
  EXPECT_EQ(chunks[7]["kind"], "usage");
  EXPECT_EQ(chunks[8]["kind"], "done");
  int64_t prev = headers, tokens = 0;
  for (size_t i = 1; i <= 6; ++i) {
    EXPECT_EQ(chunks[i]["kind"], "content");
    const int64_t t = chunks[i]["steady_ns"];
    const int64_t due = chunks[i]["due_steady_ns"];
    EXPECT_GE(t, prev);
    EXPECT_GE(t, due);  // never early
    EXPECT_EQ(chunks[i]["wall_ns"].get<int64_t>() - t,
              g["received_wall_ns"].get<int64_t>() - received);
    tokens += chunks[i]["tokens"].get<int64_t>();
    prev = t;
  }
  EXPECT_EQ(tokens, 6);
  // The client cannot see a write before the server made it.
  int content_seen = 0;
  for (const SseEvent& e : r.events) {
    if (e.data.find("\"content\":\" ") == std::string::npos) continue;
    ++content_seen;
    EXPECT_GE(e.arrival_ns, chunks[content_seen]["steady_ns"].get<int64_t>());
  }
  EXPECT_EQ(content_seen, 6);
  json n = json::parse(lines[1]);
  EXPECT_EQ(n["stream"], false);
  ASSERT_EQ(n["chunks"].size(), 1u);
  EXPECT_EQ(n["chunks"][0]["kind"], "body");
  mock->stop();
  unlink(path.c_str());
}

TEST(MockFiles, GroundTruthMarksFaults) {
  const std::string path = temp_path("truth_fault.jsonl");
  auto mock = MockProcess::start({"--ground-truth", path});
  ASSERT_NE(mock, nullptr);
  const std::string body =
      R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"ignore_eos":true,"stream":true})";
  post_json(mock->port(), "/v1/chat/completions", body,
            {{"X-Mock-Scenario", "error_rate=100;error_kind=reset"}});
  post_json(mock->port(), "/v1/chat/completions", body,
            {{"X-Mock-Scenario", "error_rate=100;error_kind=http500"}});
  auto lines = read_lines(path, 2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(json::parse(lines[0])["outcome"], "reset");
  EXPECT_EQ(json::parse(lines[1])["outcome"], "http500");
  EXPECT_EQ(json::parse(lines[1])["status"], 500);
  mock->stop();
  unlink(path.c_str());
}

// Regression: a streamed malformed fault was recorded as "ok" (the outcome was only set on the
// non-streamed path), so tests comparing client errors with the ground truth under-counted it.
TEST(MockFiles, GroundTruthMarksMalformedStreamedAndNot) {
  const std::string path = temp_path("truth_malformed.jsonl");
  auto mock = MockProcess::start({"--ground-truth", path});
  ASSERT_NE(mock, nullptr);
  const std::string stream =
      R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"ignore_eos":true,"stream":true})";
  const std::string plain =
      R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"ignore_eos":true})";
  const std::map<std::string, std::string> fault{{"X-Mock-Scenario", "error_rate=100;error_kind=malformed"}};
  post_json(mock->port(), "/v1/chat/completions", stream, fault);
  post_json(mock->port(), "/v1/chat/completions", plain, fault);
  post_json(mock->port(), "/v1/chat/completions", stream);
  auto lines = read_lines(path, 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(json::parse(lines[0])["outcome"], "malformed");
  EXPECT_EQ(json::parse(lines[1])["outcome"], "malformed");
  EXPECT_EQ(json::parse(lines[2])["outcome"], "ok");
  mock->stop();
  unlink(path.c_str());
}

TEST(MockFiles, MixedFaultsDrawSeveralKindsButNeverStall) {
  const std::string path = temp_path("truth_mixed.jsonl");
  auto mock = MockProcess::start({"--ground-truth", path, "--error-rate", "100", "--error-kind", "mixed"});
  ASSERT_NE(mock, nullptr);
  const std::string stream =
      R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":4,"ignore_eos":true,"stream":true})";
  for (int i = 0; i < 40; ++i) post_json(mock->port(), "/v1/chat/completions", stream, {}, 2'000);
  auto lines = read_lines(path, 40);
  ASSERT_EQ(lines.size(), 40u);
  std::map<std::string, int> kinds;
  for (const auto& l : lines) ++kinds[json::parse(l)["outcome"].get<std::string>()];
  EXPECT_EQ(kinds.count("ok"), 0u);
  EXPECT_EQ(kinds.count("stall"), 0u);
  EXPECT_GE(kinds.size(), 4u);
  for (const auto& [k, n] : kinds)
    EXPECT_TRUE(k == "http500" || k == "http429" || k == "reset" || k == "malformed" || k == "error-event") << k;
  mock->stop();
  unlink(path.c_str());
}

}  // namespace
}  // namespace servebench::mock::testing
