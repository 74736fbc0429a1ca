#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/json_text.h"

namespace servebench::endpoints {
namespace {

using nlohmann::json;

std::unique_ptr<Endpoint> make(std::string_view type, EndpointOptions o) {
  auto e = make_endpoint(type, o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return std::move(*e);
}

TurnPayload turn(std::vector<Message> m, int64_t max_tokens = -1, std::string model = "") {
  TurnPayload t;
  t.messages = std::move(m);
  t.max_output_tokens = max_tokens;
  t.model = std::move(model);
  return t;
}

TEST(Endpoint, RegistryListsTypesAndRejectsUnknown) {
  // Sorted, and every type listed (more types register from their own files).
  const std::vector<std::string> types = endpoint_types();
  EXPECT_TRUE(std::is_sorted(types.begin(), types.end()));
  for (const char* t : {"chat", "completions", "embeddings", "messages", "responses", "huggingface_generate", "solido_rag", "template", "raw", "chat_embeddings", "cohere_rankings", "hf_tei_rankings", "nim_embeddings", "nim_rankings"})
    EXPECT_NE(std::find(types.begin(), types.end(), t), types.end()) << t;
  auto bad = make_endpoint("embedings", EndpointOptions{});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("'embedings'"), std::string::npos);
  EXPECT_NE(bad.error().message.find("known: chat, chat_embeddings, "), std::string::npos)
      << bad.error().message;
  auto chat = make("chat", {});
  EXPECT_EQ(chat->name(), "chat");
  EXPECT_EQ(chat->default_path(), "/v1/chat/completions");
  EXPECT_EQ(make("completions", {})->default_path(), "/v1/completions");
}

TEST(Endpoint, ChatStreamingBody) {
  EndpointOptions o;
  o.model = "meta/llama";
  o.streaming = true;
  auto e = make("chat", o);
  std::string body = e->render_body(turn({{"system", "Be brief."}, {"user", "Hi \"you\"\n\x01"}}, 64));
  EXPECT_EQ(body,
            "{\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\","
            "\"content\":\"Hi \\\"you\\\"\\n\\u0001\"}],\"model\":\"meta/llama\",\"stream\":true,"
            "\"stream_options\":{\"include_usage\":true},\"max_completion_tokens\":64}");
  json j = json::parse(body);  // also valid JSON
  EXPECT_EQ(j["messages"][1]["content"], "Hi \"you\"\n\x01");
}

TEST(Endpoint, LegacyMaxTokensNoStreamPerTurnModel) {
  EndpointOptions o;
  o.model = "a";
  o.use_legacy_max_tokens = true;
  auto e = make("chat", o);
  json j = json::parse(e->render_body(turn({{"user", "x"}}, 10, "b")));
  EXPECT_EQ(j["model"], "b");
  EXPECT_EQ(j["max_tokens"], 10);
  EXPECT_FALSE(j.contains("max_completion_tokens"));
  EXPECT_EQ(j["stream"], false);
  EXPECT_FALSE(j.contains("stream_options"));
  json k = json::parse(e->render_body(turn({{"user", "x"}})));
  EXPECT_FALSE(k.contains("max_tokens"));
  EXPECT_EQ(k["model"], "a");
}

TEST(Endpoint, CompletionsJoinsTextsAndUsesMaxTokens) {
  EndpointOptions o;
  o.model = "m";
  o.streaming = true;
  o.include_usage = false;
  auto e = make("completions", o);
  json j = json::parse(e->render_body(turn({{"user", "one"}, {"user", "two"}}, 5)));
  EXPECT_EQ(j["prompt"], "one\ntwo");
  EXPECT_EQ(j["max_tokens"], 5);
  EXPECT_EQ(j["stream"], true);
  EXPECT_FALSE(j.contains("stream_options"));
  EXPECT_FALSE(j.contains("messages"));
}

TEST(Endpoint, ExtraInputsAppendedAndOverrideStandardKeys) {
  EndpointOptions o;
  o.model = "m";
  o.streaming = true;
  o.extra_inputs_json = R"({"ignore_eos":true,"temperature":0.5,"max_completion_tokens":7,"stream":false,"nested":{"a":[1,"x"]}})";
  auto e = make("chat", o);
  std::string body = e->render_body(turn({{"user", "q"}}, 100));
  json j = json::parse(body);
  EXPECT_EQ(j["ignore_eos"], true);
  EXPECT_EQ(j["temperature"], 0.5);
  EXPECT_EQ(j["max_completion_tokens"], 7);  // the extra wins over the turn's count
  EXPECT_EQ(j["stream"], false);
  EXPECT_EQ(j["nested"]["a"][1], "x");
  // Each key exactly once.
  EXPECT_EQ(body.find("\"stream\":"), body.rfind("\"stream\":"));
  EXPECT_EQ(body.find("max_completion_tokens"), body.rfind("max_completion_tokens"));
}

TEST(Endpoint, ExtrasOverridingContentAndModel) {
  EndpointOptions o;
  o.model = "m";
  o.extra_inputs_json = R"({"messages":[{"role":"user","content":"fixed"}],"model":"z"})";
  auto e = make("chat", o);
  json j = json::parse(e->render_body(turn({{"user", "q"}})));
  EXPECT_EQ(j["messages"][0]["content"], "fixed");
  EXPECT_EQ(j["model"], "z");
  EXPECT_EQ(j["stream"], false);
}

TEST(Endpoint, BadExtraInputs) {
  EndpointOptions o;
  o.extra_inputs_json = "[1,2]";
  auto e = make_endpoint("chat", o);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("--extra-inputs"), std::string::npos);
  o.extra_inputs_json = "{bad";
  EXPECT_FALSE(make_endpoint("chat", o).has_value());
}

TEST(JsonText, EscapesEverythingJsonRequires) {
  std::string all;
  for (int c = 0; c < 128; ++c) all.push_back(static_cast<char>(c));
  all += "\xE2\x82\xAC";  // UTF-8 passes through
  std::string out;
  append_json_string(all, &out);
  EXPECT_EQ(json::parse(out).get<std::string>(), all);
  std::string small;
  append_json_string("a\"b\\c\x7f", &small);
  EXPECT_EQ(small, "\"a\\\"b\\\\c\x7f\"");
}

}  // namespace
}  // namespace servebench::endpoints
