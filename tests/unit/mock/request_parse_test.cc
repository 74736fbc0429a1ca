#include "request_parse.h"
#include "media/encoders.h"

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
                                   {"type": "image_url", "image_url": {"url": "https://h/cat.png"}},
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


// A 1x1 PNG and a WAV header: decoded and recorded; a part that does not decode is a 400.
TEST_F(RequestParse, MediaPartsAreDecodedAndRecorded) {
  const std::string png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
  // 44-byte header, 16 kHz mono 16-bit, 3200 data bytes = 0.1 s (data follows as zeros).
  std::string wav("RIFF\x64\x0c\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x80\x3e\0\0\0\x7d\0\0\x02\0\x10\0data\x80\x0c\0\0", 44);
  wav.append(3200, '\0');
  const std::string wav64 = servebench::media::base64(wav);
  auto r = parse_request(ApiKind::kChat,
                         R"({"messages":[{"role":"user","content":[{"type":"text","text":"hi"},)"
                         R"({"type":"image_url","image_url":{"url":"data:image/png;base64,)" + png +
                             R"("}},{"type":"input_audio","input_audio":{"data":")" + wav64 +
                             R"(","format":"wav"}}]}]})",
                         *counter_);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->media.size(), 2u);
  EXPECT_EQ(r->media[0].format, "png");
  EXPECT_EQ(r->media[0].width, 1);
  EXPECT_EQ(r->media[0].height, 1);
  EXPECT_EQ(r->media[1].format, "wav");
  EXPECT_EQ(r->media[1].sample_rate, 16000);
  EXPECT_EQ(r->media[1].bits, 16);
  EXPECT_DOUBLE_EQ(r->media[1].duration_s, 0.1);
  auto bad = parse_request(ApiKind::kChat,
                           R"({"messages":[{"role":"user","content":[)"
                           R"({"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}]})",
                           *counter_);
  EXPECT_FALSE(bad);
}

}  // namespace
}  // namespace servebench::mock
