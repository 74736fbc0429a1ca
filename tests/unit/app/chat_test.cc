// servebench chat's pure parts (app/chat.h): the chat URL from a base URL and the stats line.
#include "app/chat.h"

#include <gtest/gtest.h>

namespace servebench::app {
namespace {

TEST(Chat, UrlFromBase) {
  EXPECT_EQ(chat_url("http://h:8000"), "http://h:8000/v1/chat/completions");
  EXPECT_EQ(chat_url("http://h:8000/"), "http://h:8000/v1/chat/completions");
  EXPECT_EQ(chat_url("h:8000"), "http://h:8000/v1/chat/completions");
  EXPECT_EQ(chat_url("https://h/openai/v1"), "https://h/openai/v1/chat/completions");
  EXPECT_EQ(chat_url("http://h/v1/chat/completions"), "http://h/v1/chat/completions");
  EXPECT_EQ(chat_url("http://h/sub"), "http://h/sub/v1/chat/completions");
}

TEST(Chat, StatsLine) {
  ChatTurn t;
  t.ttft_ns = 21'440'000;
  t.latency_ns = 52'900'000;
  t.output_tokens = 17;
  t.tokens_per_s = 512.34;
  t.input_tokens = 12;
  EXPECT_EQ(format_turn(t), "TTFT 21.4 ms | 17 tokens | 512.3 tokens/s | latency 52.9 ms | ISL 12");
  ChatTurn empty;
  empty.latency_ns = 3'000'000;
  EXPECT_EQ(format_turn(empty), "TTFT - | 0 tokens | latency 3.0 ms");
}

}  // namespace
}  // namespace servebench::app
