// Stream format, usage, exact token counts and length rules, over real HTTP.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "mock_harness.h"

namespace servebench::mock::testing {
namespace {

using nlohmann::json;

int64_t words(const std::string& s) {
  int64_t n = 0;
  bool in = false;
  for (char c : s) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space && !in) ++n;
    in = !space;
  }
  return n;
}

std::string chat_body(int max_tokens, bool ignore_eos, bool stream, bool usage,
                      const std::string& extra = "") {
  json b = {{"model", "test-model"},
            {"messages",
             {{{"role", "system"}, {"content", "you are terse"}},
              {{"role", "user"}, {"content", "tell me about the whale please"}}}},
            {"max_tokens", max_tokens},
            {"ignore_eos", ignore_eos},
            {"stream", stream}};
  if (usage) b["stream_options"] = {{"include_usage", true}};
  std::string s = b.dump();
  if (!extra.empty()) s = s.substr(0, s.size() - 1) + "," + extra + "}";
  return s;
}

class MockStream : public ::testing::Test {
 protected:
  void SetUp() override {
    mock_ = MockProcess::start({"--seed", "7"});
    ASSERT_NE(mock_, nullptr);
  }
  std::unique_ptr<MockProcess> mock_;
};

TEST_F(MockStream, ListeningLineIsExact) {
  const std::string want = "listening on http://127.0.0.1:" + std::to_string(mock_->port());
  EXPECT_EQ(mock_->first_line(), want);
  EXPECT_NE(mock_->port(), 0);
}

TEST_F(MockStream, ChatStreamIsVllmShaped) {
  auto r = post_json(mock_->port(), "/v1/chat/completions", chat_body(7, true, true, true));
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["content-type"], "text/event-stream; charset=utf-8");
  EXPECT_EQ(r.headers["transfer-encoding"], "chunked");
  // role, 7 tokens, usage, [DONE]
  ASSERT_EQ(r.events.size(), 10u);
  json role = json::parse(r.events[0].data);
  EXPECT_EQ(role["object"], "chat.completion.chunk");
  EXPECT_EQ(role["model"], "test-model");
  EXPECT_EQ(role["choices"][0]["delta"], json({{"role", "assistant"}, {"content", ""}}));
  std::string content;
  for (size_t i = 1; i <= 7; ++i) {
    json e = json::parse(r.events[i].data);
    EXPECT_EQ(e["id"], role["id"]);
    const json& choice = e["choices"][0];
    EXPECT_FALSE(choice["delta"].contains("role"));
    const std::string piece = choice["delta"]["content"];
    EXPECT_EQ(words(piece), 1) << piece;
    content += piece;
    if (i < 7) {
      EXPECT_TRUE(choice["finish_reason"].is_null());
    } else {
      EXPECT_EQ(choice["finish_reason"], "length");
    }
  }
  json usage = json::parse(r.events[8].data);
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["completion_tokens"], 7);
  EXPECT_EQ(usage["usage"]["prompt_tokens"], 3 + 6);  // whitespace words of both messages
  EXPECT_EQ(usage["usage"]["total_tokens"], 16);
  EXPECT_EQ(r.events[9].data, "[DONE]");
  EXPECT_EQ(words(content), 7);
}

TEST_F(MockStream, NoUsageChunkUnlessAsked) {
  auto r = post_json(mock_->port(), "/v1/chat/completions", chat_body(3, true, true, false));
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.events.size(), 5u);  // role, 3 tokens, [DONE]
  for (const SseEvent& e : r.events) EXPECT_EQ(e.data.find("\"usage\""), std::string::npos);
  EXPECT_EQ(r.events.back().data, "[DONE]");
}

// stream_options.continuous_usage_stats (vLLM): every token event carries the cumulative usage.
TEST_F(MockStream, ContinuousUsageStatsPutsCumulativeUsageOnEveryTokenEvent) {
  json b = json::parse(chat_body(3, true, true, true));
  b["stream_options"]["continuous_usage_stats"] = true;
  auto r = post_json(mock_->port(), "/v1/chat/completions", b.dump());
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.events.size(), 6u);  // role, 3 tokens, usage, [DONE]
  for (int i = 1; i <= 3; ++i) {
    json ev = json::parse(r.events[static_cast<size_t>(i)].data);
    EXPECT_FALSE(ev["choices"][0]["delta"]["content"].get<std::string>().empty());
    EXPECT_EQ(ev["usage"]["completion_tokens"], i) << r.events[static_cast<size_t>(i)].data;
    EXPECT_EQ(ev["usage"]["prompt_tokens"], 9);
  }
  EXPECT_EQ(json::parse(r.events[4].data)["usage"]["completion_tokens"], 3);
}

TEST_F(MockStream, CompletionsStreamUsesText) {
  const std::string body =
      R"({"model":"m","prompt":"one two three four","max_tokens":5,"ignore_eos":true,)"
      R"("stream":true,"stream_options":{"include_usage":true}})";
  auto r = post_json(mock_->port(), "/v1/completions", body);
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.events.size(), 7u);  // 5 tokens, usage, [DONE]; no role event
  std::string text;
  for (size_t i = 0; i < 5; ++i) {
    json e = json::parse(r.events[i].data);
    EXPECT_EQ(e["object"], "text_completion");
    text += e["choices"][0]["text"].get<std::string>();
  }
  json u = json::parse(r.events[5].data)["usage"];
  EXPECT_EQ(u["prompt_tokens"], 4);
  EXPECT_EQ(u["completion_tokens"], 5);
  EXPECT_EQ(words(text), 5);
}

TEST_F(MockStream, NonStreamingBodiesCarryUsageAndExactCounts) {
  auto chat = post_json(mock_->port(), "/v1/chat/completions", chat_body(12, true, false, false));
  ASSERT_TRUE(chat.complete);
  EXPECT_EQ(chat.status, 200);
  json c = json::parse(chat.body);
  EXPECT_EQ(c["object"], "chat.completion");
  EXPECT_EQ(c["usage"]["completion_tokens"], 12);
  EXPECT_EQ(words(c["choices"][0]["message"]["content"]), 12);
  EXPECT_EQ(c["choices"][0]["finish_reason"], "length");
  auto comp = post_json(mock_->port(), "/v1/completions",
                        R"({"prompt":"a b","max_tokens":9,"ignore_eos":true})");
  json p = json::parse(comp.body);
  EXPECT_EQ(p["usage"]["completion_tokens"], 9);
  EXPECT_EQ(p["usage"]["prompt_tokens"], 2);
  EXPECT_EQ(words(p["choices"][0]["text"]), 9);
}

TEST_F(MockStream, MinTokensAndSeededLengths) {
  std::set<int64_t> seen;
  for (int i = 0; i < 30; ++i) {
    auto r = post_json(mock_->port(), "/v1/chat/completions",
                       chat_body(30, false, false, false, R"("min_tokens":25)"));
    ASSERT_TRUE(r.complete);
    json j = json::parse(r.body);
    const int64_t n = j["usage"]["completion_tokens"];
    EXPECT_GE(n, 25);
    EXPECT_LE(n, 30);
    EXPECT_EQ(words(j["choices"][0]["message"]["content"]), n);
    EXPECT_EQ(j["choices"][0]["finish_reason"], n == 30 ? "length" : "stop");
    seen.insert(n);
  }
  EXPECT_GE(seen.size(), 3u);  // lengths vary with the seed, not fixed
}

TEST_F(MockStream, StreamedTokensMatchUsageForSeededLengths) {
  for (int i = 0; i < 10; ++i) {
    auto r = post_json(mock_->port(), "/v1/chat/completions", chat_body(40, false, true, true));
    ASSERT_TRUE(r.complete);
    std::string content;
    int64_t usage = -1;
    for (const SseEvent& e : r.events) {
      if (e.data == "[DONE]") continue;
      json j = json::parse(e.data);
      if (j.contains("usage")) usage = j["usage"]["completion_tokens"];
      if (!j["choices"].empty() && j["choices"][0]["delta"].contains("content")) {
        content += j["choices"][0]["delta"]["content"].get<std::string>();
      }
    }
    EXPECT_EQ(words(content), usage);
    EXPECT_GE(usage, 1);
    EXPECT_LE(usage, 40);
  }
}

TEST(MockStreamOptions, DefaultMaxTokensWhenAbsent) {
  auto mock = MockProcess::start({"--default-max-tokens", "6"});
  ASSERT_NE(mock, nullptr);
  for (int i = 0; i < 10; ++i) {
    auto r = post_json(mock->port(), "/v1/chat/completions",
                       R"({"messages":[{"role":"user","content":"x"}],"ignore_eos":true})");
    EXPECT_EQ(json::parse(r.body)["usage"]["completion_tokens"], 6);
  }
}

TEST(MockStreamOptions, ReasoningTokensComeFirst) {
  auto mock = MockProcess::start({"--reasoning-tokens", "3"});
  ASSERT_NE(mock, nullptr);
  auto r = post_json(mock->port(), "/v1/chat/completions", chat_body(8, true, true, true));
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.events.size(), 11u);  // role, 3 reasoning, 5 content, usage, done
  for (size_t i = 1; i <= 8; ++i) {
    json d = json::parse(r.events[i].data)["choices"][0]["delta"];
    EXPECT_EQ(d.contains("reasoning_content"), i <= 3) << i;
    EXPECT_EQ(d.contains("content"), i > 3) << i;
  }
  EXPECT_EQ(json::parse(r.events[9].data)["usage"]["completion_tokens"], 8);
  auto full = post_json(mock->port(), "/v1/chat/completions", chat_body(8, true, false, false));
  json m = json::parse(full.body)["choices"][0]["message"];
  EXPECT_EQ(words(m["reasoning_content"]), 3);
  EXPECT_EQ(words(m["content"]), 5);
}

TEST(MockStreamOptions, TokensPerChunkGroupsTokens) {
  auto mock = MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  auto r = post_json(mock->port(), "/v1/chat/completions", chat_body(10, true, true, false),
                     {{"X-Mock-Scenario", "tokens_per_chunk=3"}});
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.events.size(), 6u);  // role, 3+3+3+1, done
  const int64_t want[] = {3, 3, 3, 1};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(words(json::parse(r.events[i + 1].data)["choices"][0]["delta"]["content"]), want[i]);
  }
}

TEST(MockStreamOptions, SameSeedSameOutput) {
  auto a = MockProcess::start({"--seed", "11"});
  auto b = MockProcess::start({"--seed", "11"});
  auto c = MockProcess::start({"--seed", "12"});
  ASSERT_TRUE(a && b && c);
  const std::string body = chat_body(50, false, false, false);
  const json ja = json::parse(post_json(a->port(), "/v1/chat/completions", body).body);
  const json jb = json::parse(post_json(b->port(), "/v1/chat/completions", body).body);
  const json jc = json::parse(post_json(c->port(), "/v1/chat/completions", body).body);
  EXPECT_EQ(ja["choices"][0]["message"]["content"], jb["choices"][0]["message"]["content"]);
  EXPECT_NE(ja["choices"][0]["message"]["content"], jc["choices"][0]["message"]["content"]);
}

}  // namespace
}  // namespace servebench::mock::testing
