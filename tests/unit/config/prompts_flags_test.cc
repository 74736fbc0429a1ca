// flags_prompts.cc: --apply-chat-template and --prompt-corpus.
#include <gtest/gtest.h>

#include "config/cli_options.h"

namespace servebench::config {
namespace {

Result<ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "profile");
  args.insert(args.end(), {"-m", "m", "-u", "http://localhost:8000"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

TEST(PromptsFlags, ApplyChatTemplateSwitch) {
  auto off = parse({});
  ASSERT_TRUE(off.has_value()) << off.error().message;
  EXPECT_FALSE(off->config.apply_chat_template);
  auto on = parse({"--apply-chat-template"});
  ASSERT_TRUE(on.has_value()) << on.error().message;
  EXPECT_TRUE(on->config.apply_chat_template);
}

TEST(PromptsFlags, PromptCorpus) {
  auto sonnet = parse({"--prompt-corpus", "sonnet"});
  ASSERT_TRUE(sonnet.has_value()) << sonnet.error().message;
  EXPECT_EQ(sonnet->config.prompt_corpus, "sonnet");
  auto coding = parse({"--prompt-corpus", "coding"});
  ASSERT_FALSE(coding.has_value());
  EXPECT_NE(coding.error().message.find("not supported yet"), std::string::npos);
  auto bad = parse({"--prompt-corpus", "poems"});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("expected sonnet or coding"), std::string::npos);
}

}  // namespace
}  // namespace servebench::config
