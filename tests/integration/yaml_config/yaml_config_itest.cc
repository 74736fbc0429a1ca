#include <gtest/gtest.h>

#include "integration/profile/harness.h"
#include "yaml_config/templates.h"

namespace servebench::itest {
namespace {

int run_cmd(const std::vector<std::string>& args, const std::string& err_path) {
  std::vector<std::string> argv = {bin_dir() + "/servebench"};
  argv.insert(argv.end(), args.begin(), args.end());
  int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  pid_t pid = spawn(argv, -1, err_fd);
  close(err_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

TEST(YamlConfigIntegration, EveryTemplateValidates) {
  const std::string dir = make_temp_dir("yaml-templates");
  for (const auto& t : yaml_config::templates()) {
    const std::string file = dir + "/" + t.name + ".yaml";
    ASSERT_EQ(run_cmd({"config", "init", "-t", t.name, "-o", file}, dir + "/err.txt"), 0) << t.name;
    EXPECT_EQ(run_cmd({"config", "validate", file}, dir + "/err.txt"), 0)
        << t.name << ": " << read_file(dir + "/err.txt");
  }
  EXPECT_EQ(run_cmd({"config", "init", "-t", "no_such_template"}, dir + "/err.txt"), 2);
}

TEST(YamlConfigIntegration, BadFileExitsTwoWithFileAndLine) {
  const std::string dir = make_temp_dir("yaml-bad");
  const std::string file = dir + "/bad.yaml";
  std::ofstream(file) << "benchmark:\n  model: m\n  load:\n    concurency: 4\n";
  auto r = run_profile(dir, {"-f", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find(file + ":4: unknown key 'concurency' under benchmark.load (did you mean "
                                      "'concurrency'?)"),
            std::string::npos)
      << r.stderr_text;
}

TEST(YamlConfigIntegration, MinimalTemplateRunsAndProfileConfigReproducesInputs) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const std::string dir = make_temp_dir("yaml-run");
  const std::string file = dir + "/minimal.yaml";
  ASSERT_EQ(run_cmd({"config", "init", "-t", "minimal", "-u", mock.url(), "-o", file}, dir + "/err.txt"), 0);
  // No --random-seed: the file must record the seed the run drew.
  auto first = run_profile(dir, {"-f", file, "--api-key", "sk-itest-secret-41", "--request-count", "6"});
  ASSERT_EQ(first.exit_code, 0) << first.stderr_text;
  const std::string cfg = first.artifact_dir + "/profile_config.yaml";
  const std::string text = read_file(cfg);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find("sk-itest-secret-41"), std::string::npos);
  EXPECT_NE(text.find("${OPENAI_API_KEY}"), std::string::npos);
  const Json summary = Json::parse(read_file(first.artifact_dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(summary["request_count"]["avg"].get<double>(), 6);  // the command line overrode 10

  const std::string dir2 = make_temp_dir("yaml-rerun");
  setenv("OPENAI_API_KEY", "sk-itest-secret-41", 1);
  auto second = run_profile(dir2, {"-f", cfg});
  unsetenv("OPENAI_API_KEY");
  ASSERT_EQ(second.exit_code, 0) << second.stderr_text;
  const std::string a = read_file(first.artifact_dir + "/inputs.json");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, read_file(second.artifact_dir + "/inputs.json"));
}

// Three requests, 7 blocks, 3 of them seen before: 3/7 blocks; tokens (2 + 1 reused blocks of
// the block size, capped at each input length) over 3100 input tokens.
TEST(AnalyzeTrace, KnownHitRatesAndDistributions) {
  const std::string dir = make_temp_dir("analyze-trace");
  const std::string trace = dir + "/trace.jsonl";
  std::ofstream(trace) << R"({"timestamp": 0, "input_length": 1000, "output_length": 10, "hash_ids": [1, 2]}
{"timestamp": 500, "input_length": 1500, "output_length": 20, "hash_ids": [1, 2, 3]}
{"timestamp": 2000, "input_length": 600, "output_length": 30, "hash_ids": [1, 4]}
)";
  for (const auto& [block, tokens] : std::vector<std::pair<int, double>>{{512, 1536}, {256, 768}}) {
    std::vector<std::string> argv = {bin_dir() + "/servebench", "analyze-trace", trace, "--json",
                                     "--block-size", std::to_string(block)};
    const std::string out_path = dir + "/out.json";
    int fd = open(out_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    pid_t pid = spawn(argv, fd, -1);
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_EQ(WEXITSTATUS(status), 0);
    const Json j = Json::parse(read_file(out_path));
    EXPECT_EQ(j["requests"], 3);
    EXPECT_EQ(j["cache"]["total_blocks"], 7);
    EXPECT_EQ(j["cache"]["reused_blocks"], 3);
    EXPECT_DOUBLE_EQ(j["cache"]["block_hit_rate"].get<double>(), 3.0 / 7.0);
    EXPECT_DOUBLE_EQ(j["cache"]["token_hit_rate"].get<double>(), tokens / 3100.0);
    EXPECT_DOUBLE_EQ(j["input_length"]["p50"].get<double>(), 1000);
    EXPECT_DOUBLE_EQ(j["output_length"]["max"].get<double>(), 30);
    EXPECT_DOUBLE_EQ(j["timestamp_span_s"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(j["request_rate_per_s"].get<double>(), 1.0);
  }
  EXPECT_EQ(run_cmd({"analyze-trace", dir + "/missing.jsonl"}, dir + "/err.txt"), 2);
}

}  // namespace
}  // namespace servebench::itest
