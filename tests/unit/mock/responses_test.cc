#include "responses.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace servebench::mock {
namespace {

using nlohmann::json;

ResponseHead head() { return ResponseHead{"chatcmpl-1", 1700000000, json_quote("m\"x")}; }

// Strips "data: " and the blank line, parses the JSON.
json parse_event(const std::string& event) {
  EXPECT_EQ(event.rfind("data: ", 0), 0u);
  EXPECT_EQ(event.substr(event.size() - 2), "\n\n");
  return json::parse(event.substr(6, event.size() - 8));
}

TEST(Responses, RoleEventIsVllmExact) {
  std::string out;
  append_chat_role_event(ResponseHead{"chatcmpl-1", 1700000000, "\"m\""}, &out);
  EXPECT_EQ(out,
            "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":"
            "1700000000,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":"
            "\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
}

TEST(Responses, ChatTokenEvents) {
  std::string mid, last, reasoning;
  append_chat_token_event(head(), " the", false, nullptr, &mid);
  append_chat_token_event(head(), " end", false, "length", &last);
  append_chat_token_event(head(), " hmm", true, nullptr, &reasoning);
  json m = parse_event(mid), l = parse_event(last), r = parse_event(reasoning);
  EXPECT_EQ(m["model"], "m\"x");
  EXPECT_EQ(m["choices"][0]["delta"]["content"], " the");
  EXPECT_TRUE(m["choices"][0]["finish_reason"].is_null());
  EXPECT_FALSE(m["choices"][0].contains("stop_reason"));
  EXPECT_EQ(l["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(l["choices"][0]["delta"]["content"], " end");
  EXPECT_EQ(r["choices"][0]["delta"]["reasoning_content"], " hmm");
  EXPECT_FALSE(r["choices"][0]["delta"].contains("content"));
}

TEST(Responses, ToolCallEventsBodiesAndCachedTokens) {
  std::string first, next, u;
  append_chat_tool_event(head(), "{\"q\":", true, nullptr, &first);
  append_chat_tool_event(head(), "1}", false, "stop", &next);
  const json f = parse_event(first), n = parse_event(next);
  const json& call = f["choices"][0]["delta"]["tool_calls"][0];
  EXPECT_EQ(call["index"], 0);
  EXPECT_EQ(call["type"], "function");
  EXPECT_EQ(call["function"]["name"], std::string(kToolName));
  EXPECT_EQ(call["function"]["arguments"], "{\"q\":");
  const json& more = n["choices"][0]["delta"]["tool_calls"][0];
  EXPECT_FALSE(more["function"].contains("name"));
  EXPECT_EQ(more["function"]["arguments"], "1}");
  EXPECT_EQ(n["choices"][0]["finish_reason"], "stop");
  const json body = json::parse(chat_completion_body(head(), "{}", "", "stop", UsageCounts{5, 2, 3}, true));
  EXPECT_TRUE(body["choices"][0]["message"]["content"].is_null());
  EXPECT_EQ(body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"], "{}");
  EXPECT_EQ(body["usage"]["prompt_tokens_details"]["cached_tokens"], 3);
  append_usage_event(head(), true, UsageCounts{5, 2}, &u);
  EXPECT_TRUE(parse_event(u)["usage"]["prompt_tokens_details"].is_null());
}

TEST(Responses, CompletionAndUsageEvents) {
  std::string c, u;
  append_completion_token_event(head(), " a\"b", "stop", &c);
  append_usage_event(head(), false, UsageCounts{7, 3}, &u);
  json cj = parse_event(c), uj = parse_event(u);
  EXPECT_EQ(cj["object"], "text_completion");
  EXPECT_EQ(cj["choices"][0]["text"], " a\"b");
  EXPECT_EQ(cj["choices"][0]["finish_reason"], "stop");
  EXPECT_TRUE(uj["choices"].empty());
  EXPECT_EQ(uj["usage"]["prompt_tokens"], 7);
  EXPECT_EQ(uj["usage"]["completion_tokens"], 3);
  EXPECT_EQ(uj["usage"]["total_tokens"], 10);
  std::string done;
  append_done_event(&done);
  EXPECT_EQ(done, "data: [DONE]\n\n");
}

TEST(Responses, FaultEvents) {
  std::string bad, err;
  append_malformed_event(head(), &bad);
  EXPECT_THROW(parse_event(bad), json::parse_error);
  append_error_event("boom", 500, &err);
  json e = parse_event(err);
  EXPECT_EQ(e["error"]["message"], "boom");
  EXPECT_EQ(e["error"]["code"], 500);
}

TEST(Responses, NonStreamingBodies) {
  json chat = json::parse(chat_completion_body(head(), " x y", " r", "length", UsageCounts{2, 3}));
  EXPECT_EQ(chat["object"], "chat.completion");
  EXPECT_EQ(chat["choices"][0]["message"]["content"], " x y");
  EXPECT_EQ(chat["choices"][0]["message"]["reasoning_content"], " r");
  EXPECT_EQ(chat["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(chat["usage"]["total_tokens"], 5);
  json comp = json::parse(completion_body(head(), " t", "stop", UsageCounts{1, 1}));
  EXPECT_EQ(comp["choices"][0]["text"], " t");
  json err = json::parse(error_body("bad \"thing\"\n", "BadRequestError", 400));
  EXPECT_EQ(err["error"]["message"], "bad \"thing\"\n");
  EXPECT_EQ(err["error"]["code"], 400);
  EXPECT_TRUE(err["error"]["param"].is_null());
}

}  // namespace
}  // namespace servebench::mock
