// `servebench synthesize` against servebench-mock: the file holds the synthetic run's prompts,
// and `profile --input-file` replays them (same texts, and with shuffle + the same seed the same
// inputs.json byte for byte).
#include <gtest/gtest.h>

#include <algorithm>

#include "profile/harness.h"

namespace servebench::itest {
namespace {

// The last user message of every payload in inputs.json, in file order.
std::vector<std::string> sent_texts(const std::string& inputs_path) {
  const Json doc = Json::parse(read_file(inputs_path));
  std::vector<std::string> out;
  for (const auto& s : doc["data"])
    for (const auto& p : s["payloads"]) out.push_back(p["messages"].back()["content"]);
  return out;
}

std::vector<std::string> prompt_flags() {
  return {"-m",    "mock-model", "--tokenizer",           "builtin", "--isl", "24", "--isl-stddev",
          "6",     "--osl",      "5",                     "--num-dataset-entries", "6",
          "--random-seed",       "9"};
}

TEST(SynthesizeIntegration, FileReplaysTheSyntheticPrompts) {
  const std::string dir = make_temp_dir("synth");
  const std::string file = dir + "/workload.jsonl";
  std::vector<std::string> argv = {bin_dir() + "/servebench", "synthesize", "-o", file};
  const auto flags = prompt_flags();
  argv.insert(argv.end(), flags.begin(), flags.end());
  const Proc p = run_process(dir, argv);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_NE(p.err.find("6 conversation(s), 6 turn(s) (seed 9"), std::string::npos) << p.err;
  const auto rows = read_jsonl(file);
  ASSERT_EQ(rows.size(), 6u);
  std::vector<std::string> texts;
  for (const auto& r : rows) {
    ASSERT_EQ(r["turns"].size(), 1u);
    EXPECT_EQ(r["turns"][0]["output_length"], 5);
    texts.push_back(r["turns"][0]["text"]);
  }
  EXPECT_EQ(rows[0]["session_id"], "synthetic-0");
  EXPECT_NE(texts[0], texts[1]);

  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "1", "--itl-ms", "1"}));
  auto run = [&](const std::string& tag, std::vector<std::string> extra) {
    auto args = prompt_flags();
    args.insert(args.end(), {"--url", mock.url(), "--request-count", "6", "--ui", "none"});
    args.insert(args.end(), extra.begin(), extra.end());
    return run_profile(make_temp_dir(tag), args, 60);
  };
  RunResult replay = run("replay", {"--input-file", file, "--custom-dataset-type", "multi_turn"});
  ASSERT_EQ(replay.exit_code, 0) << replay.stderr_text;
  EXPECT_EQ(sent_texts(replay.artifact_dir + "/inputs.json"), texts) << "the file, in order";

  RunResult synthetic = run("synthetic", {});
  ASSERT_EQ(synthetic.exit_code, 0) << synthetic.stderr_text;
  auto a = sent_texts(synthetic.artifact_dir + "/inputs.json");
  auto b = texts;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b) << "the same prompts as the synthetic run";

  RunResult shuffled = run("shuffled", {"--input-file", file, "--custom-dataset-type", "multi_turn",
                                        "--dataset-sampling-strategy", "shuffle"});
  ASSERT_EQ(shuffled.exit_code, 0) << shuffled.stderr_text;
  EXPECT_EQ(sent_texts(shuffled.artifact_dir + "/inputs.json"),
            sent_texts(synthetic.artifact_dir + "/inputs.json"));
}

TEST(SynthesizeIntegration, BadFlagsAreOneLineErrors) {
  const std::string dir = make_temp_dir("synth_bad");
  for (const auto& extra : std::vector<std::vector<std::string>>{
           {},  // no -o
           {"-o", dir + "/x.jsonl", "--shared-system-prompt-length", "10"},
           {"-o", dir + "/x.jsonl", "--isl", "8,16"},
           {"-o", dir + "/missing/dir/x.jsonl"}}) {
    std::vector<std::string> argv = {bin_dir() + "/servebench", "synthesize", "-m", "m",
                                     "--tokenizer", "builtin"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const Proc p = run_process(dir, argv);
    EXPECT_EQ(p.exit_code, 2) << p.err;
    EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
    EXPECT_EQ(p.err.rfind("servebench synthesize: ", 0), 0u) << p.err;
  }
}

}  // namespace
}  // namespace servebench::itest
