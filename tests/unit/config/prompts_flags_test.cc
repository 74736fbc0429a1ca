// flags_prompts.cc and flags_synthesis.cc: --apply-chat-template, --prompt-corpus,
// --random-range-ratio, --random-corpus-style, --system-prompt(-file) and --synthesis-*.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

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

// A usage error: one line, naming `flag`.
void expect_usage_error(const std::vector<std::string>& args, const std::string& flag) {
  auto p = parse(args);
  ASSERT_FALSE(p.has_value()) << args.front();
  EXPECT_EQ(p.error().code, ErrorCode::kInvalidArgument) << p.error().message;
  EXPECT_EQ(p.error().message.find('\n'), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find(flag), std::string::npos) << p.error().message;
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
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
  ASSERT_TRUE(coding.has_value()) << coding.error().message;
  EXPECT_EQ(coding->config.prompt_corpus, "coding");
  auto random = parse({"--prompt-corpus", "random"});
  ASSERT_TRUE(random.has_value()) << random.error().message;
  EXPECT_EQ(random->config.prompt_corpus, "random");
  auto bad = parse({"--prompt-corpus", "poems"});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error().message.find("expected sonnet, coding or random"), std::string::npos);
}

// AIPerf's _validate_random_corpus_incompatible_with_trace: hash-id traces cut their prompts from
// a text corpus, so random tokens do not apply; other file formats take them.
TEST(PromptsFlags, RandomCorpusIsRefusedWithHashIdTraces) {
  const std::string trace = temp_file("random_corpus_trace.jsonl", "{\"input_length\": 8, \"hash_ids\": [1]}\n");
  for (const char* format : {"mooncake_trace", "bailian_trace", "burst_gpt_trace", "sagemaker_data_capture", "weka_trace"}) {
    SCOPED_TRACE(format);
    expect_usage_error({"--input-file", trace, "--custom-dataset-type", format, "--prompt-corpus", "random"},
                       "--prompt-corpus random");
    auto p = parse({"--input-file", trace, "--custom-dataset-type", format, "--prompt-corpus", "random"});
    ASSERT_FALSE(p.has_value());
    EXPECT_NE(p.error().message.find(format), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find("use --prompt-corpus sonnet or coding"), std::string::npos) << p.error().message;
    auto coding = parse({"--input-file", trace, "--custom-dataset-type", format, "--prompt-corpus", "coding"});
    EXPECT_TRUE(coding.has_value()) << coding.error().message;
  }
  for (const char* format : {"single_turn", "multi_turn", "random_pool"}) {
    auto ok = parse({"--input-file", trace, "--custom-dataset-type", format, "--prompt-corpus", "random"});
    EXPECT_TRUE(ok.has_value()) << format << ": " << ok.error().message;
  }
}

TEST(PromptsFlags, RandomRangeRatioSetsBothWindows) {
  auto p = parse({"--isl", "100", "--osl", "50", "--random-range-ratio", "0.3"});
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->config.isl_range_ratio, 0.3);
  EXPECT_EQ(p->config.osl_range_ratio, 0.3);
  EXPECT_FALSE(p->config.range_ratio_sglang);
  auto split = parse({"--osl", "50", "--random-range-ratio", R"({"input": 0.25, "output": 0.5})"});
  ASSERT_TRUE(split.has_value()) << split.error().message;
  EXPECT_EQ(split->config.isl_range_ratio, 0.25);
  EXPECT_EQ(split->config.osl_range_ratio, 0.5);
  auto sg = parse({"--osl", "50", "--random-range-ratio", "1", "--random-corpus-style", "sglang"});
  ASSERT_TRUE(sg.has_value()) << sg.error().message;
  EXPECT_TRUE(sg->config.range_ratio_sglang);
  EXPECT_EQ(sg->config.isl_range_ratio, 1.0);
}

TEST(PromptsFlags, RandomRangeRatioBadValues) {
  expect_usage_error({"--osl", "5", "--random-range-ratio", "1"}, "--random-range-ratio");  // vllm: r < 1
  expect_usage_error({"--osl", "5", "--random-range-ratio", "abc"}, "--random-range-ratio");
  expect_usage_error({"--osl", "5", "--random-range-ratio", R"({"input": 0.2})"}, "--random-range-ratio");
  expect_usage_error({"--osl", "5", "--random-corpus-style", "sglang", "--random-range-ratio",
                      R"({"input": 0.2, "output": 0.3})"},
                     "--random-range-ratio");
  expect_usage_error({"--osl", "5", "--random-corpus-style", "sglang", "--random-range-ratio", "0"},
                     "--random-range-ratio");
  expect_usage_error({"--random-range-ratio", "0.2"}, "--osl");  // no OSL mean to window
  expect_usage_error({"--osl", "5", "--random-range-ratio", "0.2", "--isl-range-ratio", "0.1"},
                     "--random-range-ratio");
  expect_usage_error({"--random-corpus-style", "tgi"}, "--random-corpus-style");
}

TEST(PromptsFlags, SystemPromptAndFile) {
  auto p = parse({"--system-prompt", "You are terse."});
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->config.system_prompt, "You are terse.");
  const std::string path = temp_file("sys.txt", "Line one.\nLine two.\n");
  auto f = parse({"--system-prompt-file", path});
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_EQ(f->config.system_prompt, "Line one.\nLine two.\n");
  EXPECT_EQ(f->config.system_prompt_file, path);
}

TEST(PromptsFlags, SystemPromptBadValues) {
  expect_usage_error({"--system-prompt", "  "}, "--system-prompt");
  expect_usage_error({"--system-prompt-file", "/nonexistent/sys.txt"}, "--system-prompt-file");
  expect_usage_error({"--system-prompt-file", temp_file("empty.txt", "\n\n")}, "--system-prompt-file");
  expect_usage_error({"--system-prompt", "x", "--system-prompt-file", temp_file("s2.txt", "y")},
                     "--system-prompt-file");
  expect_usage_error({"--system-prompt", "x", "--shared-system-prompt-length", "10"}, "--system-prompt");
  expect_usage_error({"--system-prompt", "x", "--prefix-prompt-pool-size", "2", "--prefix-prompt-length", "5"},
                     "--system-prompt");
}

TEST(SynthesisFlags, LandInTheConfig) {
  const std::string trace = temp_file("t.jsonl", "{\"input_length\": 10}\n");
  auto p = parse({"--input-file", trace, "--synthesis-speedup-ratio", "2.5", "--synthesis-prefix-len-multiplier",
                  "1.5", "--synthesis-prefix-root-multiplier", "3", "--synthesis-prompt-len-multiplier", "0.5",
                  "--synthesis-output-len-multiplier", "2", "--synthesis-max-isl", "4096", "--synthesis-max-osl",
                  "256"});
  ASSERT_TRUE(p.has_value()) << p.error().message;
  const auto& c = p->config;
  EXPECT_EQ(c.synthesis_speedup_ratio, 2.5);
  EXPECT_EQ(c.synthesis_prefix_len_multiplier, 1.5);
  EXPECT_EQ(c.synthesis_prefix_root_multiplier, 3);
  EXPECT_EQ(c.synthesis_prompt_len_multiplier, 0.5);
  EXPECT_EQ(c.synthesis_output_len_multiplier, 2.0);
  EXPECT_EQ(c.synthesis_max_isl, 4096);
  EXPECT_EQ(c.synthesis_max_osl, 256);
  EXPECT_TRUE(c.synthesis_given());
  auto none = parse({"--input-file", trace});
  ASSERT_TRUE(none.has_value()) << none.error().message;
  EXPECT_FALSE(none->config.synthesis_given());
}

TEST(SynthesisFlags, BadValuesNameTheFlag) {
  const std::string trace = temp_file("t2.jsonl", "{\"input_length\": 10}\n");
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
           {"--synthesis-speedup-ratio", "0"},
           {"--synthesis-speedup-ratio", "fast"},
           {"--synthesis-prefix-len-multiplier", "-1"},
           {"--synthesis-prefix-root-multiplier", "0"},
           {"--synthesis-prefix-root-multiplier", "1.5"},
           {"--synthesis-prompt-len-multiplier", "-0.5"},
           {"--synthesis-output-len-multiplier", "x"},
           {"--synthesis-max-isl", "0"},
           {"--synthesis-max-osl", "-3"}}) {
    SCOPED_TRACE(flag + " " + value);
    expect_usage_error({"--input-file", trace, flag, value}, flag);
  }
  // Without a trace there is nothing to re-synthesize.
  expect_usage_error({"--synthesis-speedup-ratio", "2"}, "--synthesis");
}

}  // namespace
}  // namespace servebench::config
