// `servebench chat` against servebench-mock: a quick turn prints the reply and its stats (TTFT
// at least the mock's), and an interactive conversation resends its history unless
// --no-history (checked in the request bodies the mock recorded).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>

#include "profile/harness.h"

namespace servebench::itest {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The message roles of each request body the mock recorded.
std::vector<std::vector<std::string>> recorded_roles(const std::string& path) {
  std::vector<std::vector<std::string>> out;
  for (const auto& line : read_jsonl(path)) {
    const Json body = Json::parse(line["body"].get<std::string>());
    auto& roles = out.emplace_back();
    for (const auto& m : body["messages"]) roles.push_back(m["role"]);
  }
  return out;
}

TEST(ChatIntegration, QuickTurnPrintsReplyAndStats) {
  const std::string dir = make_temp_dir("chat_quick");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "40", "--itl-ms", "2", "--default-max-tokens", "12"}));
  const Proc p = run_process(dir, {bin_dir() + "/servebench", "chat", "-m", "mock-model", "-u",
                                   mock.url(), "--tokenizer", "builtin", "-q", "hello there"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  std::smatch m;
  const std::regex stats(R"(\n\[TTFT ([0-9.]+) ms \| ([0-9]+) tokens \| ([0-9.]+) tokens/s \| latency ([0-9.]+) ms)");
  ASSERT_TRUE(std::regex_search(p.out, m, stats)) << p.out;
  const double ttft = std::stod(m[1]), latency = std::stod(m[4]);
  EXPECT_GE(ttft, 38.0) << "the mock waits 40 ms before the first token";
  EXPECT_LT(ttft, 2000.0);
  EXPECT_GT(std::stoi(m[2]), 1);
  EXPECT_GT(latency, ttft);
  EXPECT_GT(m.position(0), 0) << "the reply comes before its stats";
}

TEST(ChatIntegration, HistoryIsResentUnlessDisabled) {
  for (const bool history : {true, false}) {
    const std::string dir = make_temp_dir(history ? "chat_hist" : "chat_nohist");
    const std::string rec = dir + "/requests.jsonl";
    Server mock;
    ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--itl-ms", "1", "--default-max-tokens", "4",
                                 "--record-requests", rec, "--record-bodies"}));
    std::ofstream(dir + "/in.txt") << "first question\n\nsecond question\n";
    const std::string cmd = "exec " + quoted(bin_dir() + "/servebench") + " chat -m mock-model -u " +
                            mock.url() + " --tokenizer builtin --system-prompt 'be brief' " +
                            (history ? "" : "--no-history ") + "< " + quoted(dir + "/in.txt");
    const Proc p = run_process(dir, {"/bin/sh", "-c", cmd});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    size_t lines = 0;
    for (size_t at = 0; (at = p.out.find("\n[TTFT ", at)) != std::string::npos; ++at) ++lines;
    EXPECT_EQ(lines, 2u) << p.out;  // the empty line sends nothing
    mock.stop();
    const auto roles = recorded_roles(rec);
    ASSERT_EQ(roles.size(), 2u);
    EXPECT_EQ(roles[0], (std::vector<std::string>{"system", "user"}));
    if (history) {
      EXPECT_EQ(roles[1], (std::vector<std::string>{"system", "user", "assistant", "user"}));
    } else {
      EXPECT_EQ(roles[1], (std::vector<std::string>{"system", "user"}));
    }
  }
}

TEST(ChatIntegration, ErrorsAndExitCodes) {
  const std::string dir = make_temp_dir("chat_err");
  const Proc no_model = run_process(dir, {bin_dir() + "/servebench", "chat", "-q", "hi"});
  EXPECT_EQ(no_model.exit_code, 2) << no_model.err;
  // Nothing listens on port 9 of loopback: the quick turn fails with exit 3, one line.
  const Proc down = run_process(dir, {bin_dir() + "/servebench", "chat", "-m", "m", "-u",
                                      "http://127.0.0.1:9", "--tokenizer", "builtin", "-q", "hi"});
  EXPECT_EQ(down.exit_code, 3) << down.err;
  EXPECT_NE(down.err.find("servebench chat: request failed: http://127.0.0.1:9/v1/chat/completions"),
            std::string::npos)
      << down.err;
}

}  // namespace
}  // namespace servebench::itest
