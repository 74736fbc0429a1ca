#include "request_parse.h"

#include <gtest/gtest.h>

namespace servebench::mock {
namespace {

class RequestParse : public ::testing::Test {
 protected:
  std::unique_ptr<TokenCounter> counter_ = make_word_counter();
};

TEST_F(RequestParse, ChatMessagesRolesAndCounts) {
  auto r = parse_request(ApiKind::kChat, R"({
    "model": "qwen", "stream": true, "stream_options": {"include_usage": true},
    "max_tokens": 50, "max_completion_tokens": 20, "ignore_eos": true, "min_tokens": 3,
    "messages": [
      {"role": "system", "content": "be brief"},
      {"role": "user", "content": [{"type": "text", "text": "one two"},
                                   {"type": "image_url", "image_url": {"url": "x"}},
                                   {"type": "text", "text": "three"}]},
      {"role": "assistant", "content": null}]})",
                         *counter_);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->model, "qwen");
  EXPECT_TRUE(r->stream);
  EXPECT_TRUE(r->include_usage);
  EXPECT_EQ(r->requested_max_tokens, 20);  // max_completion_tokens wins
  EXPECT_EQ(r->length.max_tokens, 20);
  EXPECT_TRUE(r->length.ignore_eos);
  EXPECT_EQ(r->length.min_tokens, 3);
  EXPECT_EQ(r->roles, (std::vector<std::string>{"system", "user", "assistant"}));
  EXPECT_EQ(r->message_prompt_tokens, (std::vector<int64_t>{2, 3, 0}));
  EXPECT_EQ(r->prompt_tokens, 5);
}

TEST_F(RequestParse, DefaultsWhenFieldsAbsent) {
  auto r =
      parse_request(ApiKind::kChat, R"({"messages":[{"role":"user","content":"hi"}]})", *counter_);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->stream);
  EXPECT_FALSE(r->include_usage);
  EXPECT_FALSE(r->requested_max_tokens.has_value());
  EXPECT_FALSE(r->length.ignore_eos);
  EXPECT_EQ(r->model, "");
}

TEST_F(RequestParse, CompletionsPromptForms) {
  auto s = parse_request(ApiKind::kCompletions, R"({"prompt":"a b c","max_tokens":4})", *counter_);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->prompt_tokens, 3);
  auto list = parse_request(ApiKind::kCompletions, R"({"prompt":["a b","c"]})", *counter_);
  ASSERT_TRUE(list);
  EXPECT_EQ(list->prompt_tokens, 3);
  auto ids = parse_request(ApiKind::kCompletions, R"({"prompt":[1,2,3,4]})", *counter_);
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->prompt_tokens, 4);
}

TEST_F(RequestParse, Errors) {
  const char* bad[] = {
      "{not json",
      "[1,2]",
      R"({"messages":[]})",
      R"({"messages":"hi"})",
      R"({"messages":[{"content":"no role"}]})",
      R"({"messages":[{"role":"user","content":5}]})",
      R"({"messages":[{"role":"user","content":"x"}],"max_tokens":"ten"})",
      R"({"messages":[{"role":"user","content":"x"}],"max_tokens":1.5})",
      R"({"messages":[{"role":"user","content":"x"}],"max_tokens":0})",
      R"({"messages":[{"role":"user","content":"x"}],"max_tokens":4,"min_tokens":5})",
      R"({"messages":[{"role":"user","content":"x"}],"stream":"yes"})",
  };
  for (const char* body : bad) {
    auto r = parse_request(ApiKind::kChat, body, *counter_);
    EXPECT_FALSE(r) << body;
    if (!r) {
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
  }
  EXPECT_FALSE(parse_request(ApiKind::kCompletions, R"({"max_tokens":3})", *counter_));
  EXPECT_FALSE(parse_request(ApiKind::kCompletions, R"({"prompt":{"a":1}})", *counter_));
  auto invalid = parse_request(ApiKind::kChat, "{", *counter_);
  EXPECT_NE(invalid.error().message.find("invalid JSON"), std::string::npos);
}

}  // namespace
}  // namespace servebench::mock
