// servebench-mock's /v1/responses and /v1/messages routes: request parsing and the event
// grammar of their streams and bodies (every event's name equals its data's type, the texts
// add up, the closing events repeat them, usage in the vendor's shape).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "messages_route.h"
#include "responses_api_route.h"

namespace servebench::mock {
namespace {

using nlohmann::json;

struct Event {
  std::string name;
  json data;
};

// Splits "event: X\ndata: {...}\n\n"... into events; fails the test on any other framing.
std::vector<Event> split(const std::string& s) {
  std::vector<Event> out;
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t end = s.find("\n\n", pos);
    EXPECT_NE(end, std::string::npos);
    if (end == std::string::npos) break;
    const std::string block = s.substr(pos, end - pos);
    const size_t nl = block.find('\n');
    EXPECT_EQ(block.rfind("event: ", 0), 0u) << block;
    EXPECT_EQ(block.compare(nl + 1, 6, "data: "), 0) << block;
    out.push_back({block.substr(7, nl - 7), json::parse(block.substr(nl + 7))});
    pos = end + 2;
  }
  return out;
}

ResponseHead head(const char* id) {
  ResponseHead h;
  h.id = id;
  h.created_s = 1700000000;
  h.model_json = "\"mock-model\"";
  return h;
}

// Two reasoning events, then three text events, then the close.
std::string stream(ChatlikeStream& s, const char* finish) {
  std::string out;
  s.open(12, &out);
  s.token("Let ", true, &out);
  s.token("me", true, &out);
  s.token("Call", false, &out);
  s.token(" me", false, &out);
  s.token(" \"Ishmael\"", false, &out);
  s.close(finish, ChatlikeUsage{12, 5, 2}, &out);
  return out;
}

class ChatlikeRoutes : public ::testing::Test {
 protected:
  std::unique_ptr<TokenCounter> counter_ = make_word_counter();
};

TEST_F(ChatlikeRoutes, ResponsesRequestCountsInstructionsAndInputItems) {
  auto r = parse_responses_request(
      R"({"model":"m","stream":true,"instructions":"be brief","max_output_tokens":7,
          "ignore_eos":true,"input":[
            {"type":"message","role":"user","content":[{"type":"input_text","text":"one two"}]},
            {"role":"assistant","content":[{"type":"output_text","text":"three"}]},
            {"type":"function_call_output","call_id":"c","output":"x y z"},
            {"role":"user","content":"four five six"}]})",
      *counter_);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->stream);
  EXPECT_TRUE(r->include_usage);
  EXPECT_EQ(r->requested_max_tokens, 7);
  EXPECT_TRUE(r->length.ignore_eos);
  EXPECT_EQ(r->roles, (std::vector<std::string>{"system", "user", "assistant", "user"}));
  EXPECT_EQ(r->message_prompt_tokens, (std::vector<int64_t>{2, 2, 1, 3}));
  EXPECT_EQ(r->prompt_tokens, 8);
  auto s = parse_responses_request(R"({"input":"just a string"})", *counter_);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->prompt_tokens, 3);
  EXPECT_FALSE(s->requested_max_tokens.has_value());
}

TEST_F(ChatlikeRoutes, ResponsesRequestErrors) {
  for (const char* bad :
       {"{", "[]", R"({"model":"m"})", R"({"input":[]})", R"({"input":5})",
        R"({"input":[{"role":"user"}]})", R"({"input":"x","max_output_tokens":"9"})",
        R"({"input":"x","max_output_tokens":0})"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(parse_responses_request(bad, *counter_));
  }
}

TEST_F(ChatlikeRoutes, MessagesRequestNeedsMaxTokensAndCountsSystem) {
  auto r = parse_messages_request(
      R"({"model":"m","max_tokens":5,"system":[{"type":"text","text":"be brief"}],
          "messages":[{"role":"user","content":"one two"},
                      {"role":"assistant","content":[{"type":"text","text":"three"}]}]})",
      *counter_);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->stream);
  EXPECT_EQ(r->requested_max_tokens, 5);
  EXPECT_EQ(r->roles, (std::vector<std::string>{"system", "user", "assistant"}));
  EXPECT_EQ(r->prompt_tokens, 5);
  auto missing =
      parse_messages_request(R"({"messages":[{"role":"user","content":"x"}]})", *counter_);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("max_tokens"), std::string::npos);
  EXPECT_FALSE(parse_messages_request(R"({"max_tokens":3,"messages":[]})", *counter_));
  EXPECT_FALSE(
      parse_messages_request(R"({"max_tokens":3,"messages":[{"content":"x"}]})", *counter_));
}

TEST_F(ChatlikeRoutes, ResponsesStreamGrammar) {
  auto s = make_responses_stream(head("resp_00ab"));
  const auto events = split(stream(*s, "length"));
  ASSERT_FALSE(events.empty());
  std::string text, reasoning;
  std::vector<std::string> names;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    names.push_back(e.name);
    EXPECT_EQ(e.data["type"], e.name);
    EXPECT_EQ(e.data["sequence_number"], static_cast<int>(i));
    if (e.name == "response.output_text.delta") text += e.data["delta"].get<std::string>();
    if (e.name == "response.reasoning_text.delta") reasoning += e.data["delta"].get<std::string>();
  }
  EXPECT_EQ(text, "Call me \"Ishmael\"");
  EXPECT_EQ(reasoning, "Let me");
  EXPECT_EQ(names.front(), "response.created");
  EXPECT_EQ(names[1], "response.in_progress");
  // The length ran out: OpenAI ends with response.incomplete and its reason.
  const json& last = events.back().data;
  EXPECT_EQ(events.back().name, "response.incomplete");
  EXPECT_EQ(last["response"]["incomplete_details"]["reason"], "max_output_tokens");
  EXPECT_EQ(last["response"]["usage"]["input_tokens"], 12);
  EXPECT_EQ(last["response"]["usage"]["output_tokens"], 5);
  EXPECT_EQ(last["response"]["usage"]["output_tokens_details"]["reasoning_tokens"], 2);
  EXPECT_EQ(last["response"]["usage"]["total_tokens"], 17);
  ASSERT_EQ(last["response"]["output"].size(), 2u);
  EXPECT_EQ(last["response"]["output"][0]["type"], "reasoning");
  EXPECT_EQ(last["response"]["output"][1]["content"][0]["text"], "Call me \"Ishmael\"");
  const std::string body = s->body("Call", "", "stop", ChatlikeUsage{3, 1, 0});
  const json b = json::parse(body);
  EXPECT_EQ(b["object"], "response");
  EXPECT_EQ(b["status"], "completed");
  EXPECT_EQ(b["output"][0]["type"], "message");
  EXPECT_EQ(b["output"][0]["content"][0]["text"], "Call");
  int added = 0, done = 0;
  for (const auto& n : names) {
    added += n == "response.output_item.added";
    done += n == "response.output_item.done";
  }
  EXPECT_EQ(added, 2);
  EXPECT_EQ(done, 2);
}

TEST_F(ChatlikeRoutes, MessagesStreamGrammar) {
  auto s = make_messages_stream(head("msg_00ab"));
  const auto events = split(stream(*s, "stop"));
  std::string text, thinking;
  std::vector<std::string> names;
  for (const Event& e : events) {
    names.push_back(e.name);
    EXPECT_EQ(e.data["type"], e.name);
    if (e.name != "content_block_delta") continue;
    const json& d = e.data["delta"];
    if (d["type"] == "text_delta") text += d["text"].get<std::string>();
    if (d["type"] == "thinking_delta") thinking += d["thinking"].get<std::string>();
  }
  EXPECT_EQ(text, "Call me \"Ishmael\"");
  EXPECT_EQ(thinking, "Let me");
  ASSERT_GE(names.size(), 6u);
  EXPECT_EQ(names[0], "message_start");
  EXPECT_EQ(names[1], "ping");
  EXPECT_EQ(names[names.size() - 2], "message_delta");
  EXPECT_EQ(names.back(), "message_stop");
  EXPECT_EQ(events[0].data["message"]["usage"]["input_tokens"], 12);
  const json& delta = events[names.size() - 2].data;
  EXPECT_EQ(delta["delta"]["stop_reason"], "end_turn");
  EXPECT_EQ(delta["usage"]["output_tokens"], 5);
  int starts = 0, stops = 0, signatures = 0;
  for (const Event& e : events) {
    starts += e.name == "content_block_start";
    stops += e.name == "content_block_stop";
    signatures += e.name == "content_block_delta" && e.data["delta"]["type"] == "signature_delta";
  }
  EXPECT_EQ(starts, 2);  // thinking block 0, text block 1
  EXPECT_EQ(stops, 2);
  EXPECT_EQ(signatures, 1);
  const json b = json::parse(s->body("Hi", "hmm", "length", ChatlikeUsage{3, 4, 1}));
  EXPECT_EQ(b["type"], "message");
  EXPECT_EQ(b["stop_reason"], "max_tokens");
  EXPECT_EQ(b["content"][0]["type"], "thinking");
  EXPECT_EQ(b["content"][1]["text"], "Hi");
  EXPECT_EQ(b["usage"]["cache_read_input_tokens"], 0);
  EXPECT_EQ(b["usage"]["output_tokens"], 4);
}

TEST_F(ChatlikeRoutes, ErrorEventsInEachVendorsShape) {
  std::string r, m;
  make_responses_stream(head("resp_1"))->error("boom", &r);
  make_messages_stream(head("msg_1"))->error("boom", &m);
  const auto re = split(r), me = split(m);
  ASSERT_EQ(re.size(), 1u);
  EXPECT_EQ(re[0].name, "error");
  EXPECT_EQ(re[0].data["message"], "boom");
  ASSERT_EQ(me.size(), 1u);
  EXPECT_EQ(me[0].data["error"]["message"], "boom");
  EXPECT_EQ(api_id_prefix(ApiKind::kResponses), std::string("resp_"));
  EXPECT_EQ(make_chatlike_stream(ApiKind::kChat, head("x")), nullptr);
}

}  // namespace
}  // namespace servebench::mock
