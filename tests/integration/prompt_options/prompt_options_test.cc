// --synthesis-* and the prompt options end to end: servebench profile against servebench-mock,
// whose --record-requests file shows what arrived (per-message prompt tokens counted with the same
// builtin tokenizer, roles, max_tokens, arrival time).
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

MockRun run_with_mock(const std::string& dir, std::vector<std::string> args) {
  return run_with_recording_mock(dir, {"--tokenizer", "builtin"},
                                 {"-m", "mock-model", "--tokenizer", "builtin"}, args, 30);
}

int64_t server_isl(const Json& q) {
  int64_t sum = 0;
  for (const auto& n : q.at("message_prompt_tokens")) sum += n.get<int64_t>();
  return sum;
}

std::multiset<int64_t> our_isls(const RunResult& r) {
  std::multiset<int64_t> out;
  for (const auto& x : r.records()) out.insert(x.at("metrics").at("input_sequence_length").at("value").get<int64_t>());
  return out;
}

// How many kinds of code or tool output a text shows.
size_t code_marks(const std::string& text) {
  size_t n = 0;
  for (const char* m : {"def ", "self.", "return", "$ ", "\\\"id\\\":", "Traceback", "diff --git", "INFO", "std::"})
    n += text.find(m) != std::string::npos;
  return n;
}

// Block size 16. Shared ids: 1 (rows 0-2) and 2 (rows 0-1); row 4 (200 tokens) is over
// --synthesis-max-isl 100. Recorded timestamps span 8 s.
void write_trace(const std::string& path) {
  std::ofstream f(path);
  f << R"({"timestamp": 0, "input_length": 40, "output_length": 10, "hash_ids": [1, 2, 3]})" << "\n"
    << R"({"timestamp": 4000, "input_length": 48, "output_length": 20, "hash_ids": [1, 2, 4]})" << "\n"
    << R"({"timestamp": 8000, "input_length": 20, "output_length": 30, "hash_ids": [1, 5]})" << "\n"
    << R"({"timestamp": 8000, "input_length": 64, "output_length": 40, "hash_ids": [6, 7, 8, 9]})" << "\n"
    << R"({"timestamp": 8000, "input_length": 200, "output_length": 5, "hash_ids": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]})"
    << "\n";
}

TEST(PromptOptions, SynthesizedTraceReachesTheServerWithTheScaledLengths) {
  const std::string dir = make_temp_dir("synth");
  write_trace(dir + "/trace.jsonl");
  auto run = run_with_mock(dir, {"--input-file", dir + "/trace.jsonl", "--custom-dataset-type", "mooncake_trace",
                                 "--isl-block-size", "16", "--synthesis-prefix-len-multiplier", "2",
                                 "--synthesis-prompt-len-multiplier", "1.5", "--synthesis-output-len-multiplier", "2",
                                 "--synthesis-max-isl", "100", "--synthesis-max-osl", "50",
                                 "--synthesis-speedup-ratio", "100", "--random-seed", "5"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 4u) << "the 200-token row is dropped";
  // (ISL, max_tokens) per row: shared blocks doubled (16 -> 32 tokens each), unique parts x1.5,
  // output lengths x2 capped at 50.
  const std::multiset<std::pair<int64_t, int64_t>> want = {{64 + 12, 20}, {64 + 24, 40}, {32 + 6, 50}, {96, 50}};
  std::multiset<std::pair<int64_t, int64_t>> got;
  for (const auto& q : run.server) got.insert({server_isl(q), q.at("max_tokens").get<int64_t>()});
  EXPECT_EQ(got, want);
  std::multiset<int64_t> want_isl;
  for (const auto& [isl, osl] : want) want_isl.insert(isl);
  EXPECT_EQ(our_isls(run.r), want_isl) << "our ISL equals the server's count";
  // 8 s of recorded schedule at 100x: about 80 ms from first to last arrival.
  const double spread_ms =
      static_cast<double>(run.server.back().at("received_steady_ns").get<int64_t>() -
                          run.server.front().at("received_steady_ns").get<int64_t>()) / 1e6;
  EXPECT_GT(spread_ms, 60) << "the schedule is kept, only faster";
  EXPECT_LT(spread_ms, 1000);
}

TEST(PromptOptions, SynthesisMaxIslDroppingEveryRowIsAUsageError) {
  const std::string dir = make_temp_dir("synthnone");
  write_trace(dir + "/trace.jsonl");
  auto r = run_profile(dir, {"-m", "m", "--tokenizer", "builtin", "-u", "http://127.0.0.1:9", "--input-file",
                             dir + "/trace.jsonl", "--synthesis-max-isl", "10"});
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("--synthesis-max-isl 10"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
}

TEST(PromptOptions, SystemPromptIsSentBeforeEveryConversation) {
  const std::string dir = make_temp_dir("sysprompt");
  auto run = run_with_mock(dir, {"--isl", "30", "--osl", "4", "--request-count", "4", "--concurrency", "2",
                                 "--system-prompt", "You are a terse assistant. Answer in one word."});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 4u);
  std::multiset<int64_t> server;
  for (const auto& q : run.server) {
    EXPECT_EQ(q.at("roles"), Json::parse(R"(["system","user"])")) << q.dump();
    EXPECT_EQ(q.at("message_prompt_tokens").at(1).get<int64_t>(), 30) << "--isl sizes the user prompt only";
    EXPECT_GT(q.at("message_prompt_tokens").at(0).get<int64_t>(), 5);
    server.insert(server_isl(q));
  }
  EXPECT_EQ(our_isls(run.r), server);
}

TEST(PromptOptions, CodingCorpusAndRandomRangeRatio) {
  const std::string dir = make_temp_dir("coding");
  auto run = run_with_mock(dir, {"--isl", "200", "--osl", "8", "--random-range-ratio", "0.5", "--request-count",
                                 "12", "--concurrency", "4", "--prompt-corpus", "coding", "--random-seed", "3",
                                 "--export-level", "raw"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 12u);
  std::multiset<int64_t> server;
  std::set<int64_t> distinct;
  for (const auto& q : run.server) {
    const int64_t isl = server_isl(q);
    EXPECT_GE(isl, 100);
    EXPECT_LE(isl, 300);
    const int64_t osl = q.at("max_tokens").get<int64_t>();
    EXPECT_GE(osl, 4);
    EXPECT_LE(osl, 12);
    server.insert(isl);
    distinct.insert(isl);
  }
  EXPECT_GT(distinct.size(), 3u) << "lengths drawn from the window";
  EXPECT_EQ(our_isls(run.r), server);
  // The prompts are code and tool output, not prose.
  const std::string raw = read_file(run.r.artifact_dir + "/profile_export_raw.jsonl");
  EXPECT_GE(code_marks(raw), 4u) << raw.substr(0, 400);
}

// Share of a text's whitespace-separated words that are words of the prose corpus (sonnet).
double prose_share(const std::string& text, const std::set<std::string>& prose_words) {
  size_t words = 0, known = 0;
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    ++words;
    known += prose_words.count(w);
  }
  return words ? static_cast<double>(known) / static_cast<double>(words) : 0;
}

std::vector<std::string> user_prompts(const RunResult& r) {
  std::vector<std::string> out;
  const Json inputs = Json::parse(read_file(r.artifact_dir + "/inputs.json"));
  for (const auto& s : inputs.at("data"))
    for (const auto& p : s.at("payloads"))
      for (const auto& m : p.at("messages"))
        if (m.at("role") == "user") out.push_back(m.at("content").get<std::string>());
  return out;
}

TEST(PromptOptions, RandomCorpusSendsExactLengthRandomTokens) {
  const std::string dir = make_temp_dir("randomcorpus");
  auto run = run_with_mock(dir, {"--isl", "150", "--osl", "4", "--request-count", "10", "--concurrency", "2",
                                 "--prompt-corpus", "random", "--random-seed", "9"});
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 10u);
  for (const auto& q : run.server) EXPECT_EQ(server_isl(q), 150) << "the server counts the requested ISL";
  const std::multiset<int64_t> ours = our_isls(run.r);
  EXPECT_EQ(ours.size(), 10u);
  EXPECT_EQ(ours.count(150), 10u) << "our ISL is the requested one";
  // inputs.json holds random tokens, not prose: compare with a sonnet run's words.
  const std::string dir2 = make_temp_dir("sonnetcorpus");
  auto prose = run_with_mock(dir2, {"--isl", "150", "--osl", "4", "--request-count", "4", "--concurrency", "2",
                                    "--random-seed", "9"});
  ASSERT_EQ(prose.r.exit_code, 0) << prose.r.stderr_text;
  std::set<std::string> prose_words;
  for (const auto& p : user_prompts(prose.r)) {
    std::istringstream in(p);
    for (std::string w; in >> w;) prose_words.insert(w);
  }
  ASSERT_GT(prose_words.size(), 100u);
  const auto prompts = user_prompts(run.r);
  ASSERT_FALSE(prompts.empty());
  EXPECT_EQ(std::set<std::string>(prompts.begin(), prompts.end()).size(), prompts.size()) << "prompts differ";
  for (const auto& p : prompts) EXPECT_LT(prose_share(p, prose_words), 0.2) << p.substr(0, 200);
  for (const auto& p : user_prompts(prose.r)) EXPECT_GT(prose_share(p, prose_words), 0.9);
}

TEST(PromptOptions, RandomCorpusWithAHashIdTraceIsAUsageError) {
  const std::string dir = make_temp_dir("randomtrace");
  write_trace(dir + "/trace.jsonl");
  // Named by --custom-dataset-type (checked with the flags) or detected from the file's rows.
  for (bool named : {true, false}) {
    std::vector<std::string> args = {"-m", "m", "--tokenizer", "builtin", "-u", "http://127.0.0.1:9", "--input-file",
                                     dir + "/trace.jsonl", "--prompt-corpus", "random"};
    if (named) args.insert(args.end(), {"--custom-dataset-type", "mooncake_trace"});
    auto r = run_profile(dir, args);
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("--prompt-corpus random does not apply to mooncake_trace"), std::string::npos)
        << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  }
}

TEST(PromptOptions, WekaTracesDefaultToTheCodingCorpus) {
  const std::string trace = std::string(SB_EXAMPLES_DIR) + "/weka_trace.json";
  const std::string dir = make_temp_dir("wekacoding");
  auto coding = run_with_mock(dir, {"--input-file", trace, "--custom-dataset-type", "weka_trace", "--export-level", "raw"});
  ASSERT_EQ(coding.r.exit_code, 0) << coding.r.stderr_text;
  EXPECT_GE(code_marks(read_file(coding.r.artifact_dir + "/profile_export_raw.jsonl")), 4u);
  const std::string dir2 = make_temp_dir("wekasonnet");
  auto prose = run_with_mock(dir2, {"--input-file", trace, "--custom-dataset-type", "weka_trace", "--export-level",
                                    "raw", "--prompt-corpus", "sonnet"});
  ASSERT_EQ(prose.r.exit_code, 0) << prose.r.stderr_text;
  EXPECT_LE(code_marks(read_file(prose.r.artifact_dir + "/profile_export_raw.jsonl")), 2u);
}

}  // namespace
}  // namespace servebench::itest
