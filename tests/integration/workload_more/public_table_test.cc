// Tabular public datasets end to end: a fake Hugging Face hub on loopback serves small files in
// each dataset's real schema at the paths AIPerf's datasets have on the hub; servebench fetches
// them into the hub cache and replays their rows against servebench-mock, and the input lengths
// it records are the prompt lengths the mock counted. Option misuse exits 2 at once.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "integration/profile/harness.h"
#include "unit/transport/test_http_server.h"

namespace servebench::itest {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SERVEBENCH_TEST_SOURCE_DIR) + "/tests/data/public_datasets/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Hub path -> fixture file.
const std::map<std::string, std::string>& hub_files() {
  static const std::map<std::string, std::string> kFiles = {
      {"/datasets/AI-MO/NuminaMath-TIR/resolve/main/data/train-00000-of-00001.parquet", "numina.parquet"},
      {"/datasets/openai/gsm8k/resolve/main/socratic/test-00000-of-00001.parquet", "gsm8k_socratic_test.parquet"},
      {"/datasets/openai/gsm8k/resolve/main/main/test-00000-of-00001.parquet", "gsm8k_main_test.parquet"},
      {"/datasets/HuggingFaceH4/mt_bench_prompts/resolve/main/data/train-00000-of-00001-67c6c9fef07685a3.parquet",
       "mt_bench.parquet"},
      {"/datasets/vdaita/edit_5k_char/resolve/main/data/train-00000-of-00001-cd50d93ebdf7cd84.parquet", "blazedit.parquet"},
      {"/datasets/HuggingFaceH4/MATH-500/resolve/main/test.jsonl", "math500_test.jsonl"},
      {"/datasets/google-research-datasets/mbpp/resolve/main/full/test-00000-of-00001.parquet", "mbpp_full_test.parquet"},
      {"/datasets/org/my-weka/resolve/main/traces.jsonl", "weka_traces.jsonl"},
      {"/datasets/AI-MO/aimo-validation-aime/resolve/main/data/train-00000-of-00001.parquet", "numina.parquet"},
      {"/datasets/AI-MO/NuminaMath-1.5/resolve/main/data/train-00000-of-00003.parquet", "numina.parquet"},
      {"/datasets/AI-MO/NuminaMath-1.5/resolve/main/data/train-00001-of-00003.parquet", "numina.parquet"},
      {"/datasets/AI-MO/NuminaMath-1.5/resolve/main/data/train-00002-of-00003.parquet", "numina.parquet"},
      {"/datasets/openai/openai_humaneval/resolve/main/openai_humaneval/test-00000-of-00001.parquet", "humaneval.parquet"},
      {"/datasets/likaixin/InstructCoder/resolve/refs%2Fconvert%2Fparquet/default/train/0000.parquet",
       "instruct_coder.parquet"},
      {"/datasets/vdaita/edit_10k_char/resolve/refs%2Fconvert%2Fparquet/default/train/0000.parquet", "blazedit.parquet"},
  };
  return kFiles;
}

struct FakeHub {
  testing::TestHttpServer server{[](testing::TestHttpServer::Conn& c, const testing::TestHttpServer::Request& r) {
    auto it = hub_files().find(r.path);
    if (it != hub_files().end())
      testing::TestHttpServer::respond_fixed(c, fixture(it->second));
    else
      testing::TestHttpServer::respond_fixed(c, "{\"error\":\"not found\"}", 404);
  }};
  explicit FakeHub(const std::string& cache) {
    ::setenv("HF_HUB_CACHE", cache.c_str(), 1);
    ::setenv("HF_ENDPOINT", ("http://127.0.0.1:" + std::to_string(server.port())).c_str(), 1);
    ::unsetenv("HF_HUB_OFFLINE");
  }
  ~FakeHub() {
    for (const char* v : {"HF_HUB_CACHE", "HF_ENDPOINT", "HF_HUB_OFFLINE"}) ::unsetenv(v);
  }
};

MockRun run_dataset(const std::string& dir, std::vector<std::string> args, int requests) {
  const std::vector<std::string> head = {"-m", "mock-model", "--tokenizer", "builtin"};
  args.insert(args.end(), {"--concurrency", "1", "--request-count", std::to_string(requests)});
  return run_with_recording_mock(dir, {"--tokenizer", "builtin"}, head, args, 30);
}

// The input lengths servebench recorded are the prompt lengths the mock counted.
void expect_isl_is_what_the_mock_counted(const MockRun& run, size_t requests) {
  ASSERT_EQ(run.server.size(), requests);
  std::vector<int64_t> ours, theirs;
  for (const auto& rec : run.r.records())
    ours.push_back(rec.at("metrics").at("input_sequence_length").at("value").get<int64_t>());
  for (const auto& s : run.server) theirs.push_back(s.at("prompt_tokens").get<int64_t>());
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  EXPECT_EQ(ours, theirs);
}

TEST(PublicTable, HubDatasetsAreFetchedAndTheirRowsBecomeThePromptsAiperfSends) {
  const std::string dir = make_temp_dir("public-table");
  FakeHub hub(dir + "/hub");
  struct Case {
    std::vector<std::string> args;
    size_t requests;
    std::string prompt;  // one prompt the inputs must hold
  };
  const std::vector<Case> cases = {
      {{"--public-dataset", "aimo"}, 2, "how many sides has a square"},
      {{"--public-dataset", "spec_al_gsm8k", "--hf-subset", "socratic"}, 1, "how many legs do two birds have in total"},
      {{"--public-dataset", "spec_al_mtbench"}, 3, "now make it rhyme"},
      {{"--public-dataset", "blazedit_5k"}, 1, "Change request:\\nrename the function to plus"},
      {{"--public-dataset", "spec_al_math500", "--dataset-filter", "subject=Geometry"}, 1,
       "how many degrees are in a right angle"},
      {{"--public-dataset", "spec_al_mbpp", "--dataset-filter", "task_id=13"}, 1, "count the vowels in a word"},
      {{"--public-dataset", "aimo_aime"}, 2, "what is two plus three"},
      {{"--public-dataset", "aimo_numina_1_5"}, 6, "how many sides has a square"},
      {{"--public-dataset", "spec_al_humaneval"}, 1, "return the sum of a and b"},
      {{"--public-dataset", "instruct_coder"}, 1, "add a docstring to the function"},
      {{"--public-dataset", "blazedit_10k"}, 1, "Original file:\\n```python\\ndef add(a, b):"},
  };
  int n = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args[1]);
    const std::string run_dir = dir + "/run" + std::to_string(n++);
    fs::create_directories(run_dir);
    MockRun run = run_dataset(run_dir, c.args, static_cast<int>(c.requests));
    ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
    expect_isl_is_what_the_mock_counted(run, c.requests);
    const std::string inputs = read_file(run.r.artifact_dir + "/inputs.json");
    EXPECT_NE(inputs.find(c.prompt), std::string::npos) << inputs.substr(0, 2000);
    int64_t most_messages = 0;
    for (const auto& rec : run.server) most_messages = std::max(most_messages, rec.at("num_messages").get<int64_t>());
    // MT-Bench's two-turn row goes as one session with the live reply in its history.
    EXPECT_EQ(most_messages, c.args[1] == "spec_al_mtbench" ? 3 : 1);
  }
  EXPECT_EQ(hub.server.requests().size(), cases.size() + 2) << "one file fetched per dataset, three for NuminaMath-1.5";
}

TEST(PublicTable, HfWekaDatasetSelectsWekaHfAndReplaysItsTraces) {
  const std::string dir = make_temp_dir("public-weka");
  FakeHub hub(dir + "/hub");
  MockRun run = run_dataset(dir, {"--hf-weka-dataset", "org/my-weka"}, 3);
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  ASSERT_EQ(run.server.size(), 3u);
  std::vector<int64_t> isl;
  for (const auto& s : run.server) isl.push_back(s.at("prompt_tokens").get<int64_t>());
  std::sort(isl.begin(), isl.end());
  EXPECT_EQ(isl, (std::vector<int64_t>{64, 128, 192})) << "each request's recorded 'in'";
  EXPECT_TRUE(fs::exists(dir + "/hub/datasets--org--my-weka/snapshots/main/traces.jsonl"));
}

TEST(PublicTable, TheAgentxScenarioReplaysAWekaPublicDatasetAndRefusesATable) {
  const std::string dir = make_temp_dir("public-scenario");
  FakeHub hub(dir + "/hub");
  const std::vector<std::string> scenario = {"--scenario", "inferencex-agentx-mvp", "--unsafe-override",
                                             "--benchmark-duration", "1"};
  std::vector<std::string> weka = {"--hf-weka-dataset", "org/my-weka"};
  weka.insert(weka.end(), scenario.begin(), scenario.end());
  MockRun run = run_with_recording_mock(dir, {"--tokenizer", "builtin"}, {"-m", "m", "--tokenizer", "builtin"}, weka, 30);
  ASSERT_EQ(run.r.exit_code, 0) << run.r.stderr_text;
  EXPECT_GT(run.server.size(), 0u);
  std::vector<std::string> table = {"--public-dataset", "aimo"};
  table.insert(table.end(), scenario.begin(), scenario.end());
  auto r = run_profile(dir, [&] {
    std::vector<std::string> a = {"-m", "m", "--tokenizer", "builtin", "-u", "http://127.0.0.1:9"};
    a.insert(a.end(), table.begin(), table.end());
    return a;
  }(), 20);
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("replays weka_trace files; 'aimo' is single_turn"), std::string::npos) << r.stderr_text;
}

TEST(PublicTable, OptionMisuseExitsTwoWithOneLineAtOnce) {
  const std::string dir = make_temp_dir("public-misuse");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--public-dataset", "aimo", "--hf-subset", "main"}, "--public-dataset aimo has no subsets; drop --hf-subset"},
      {{"--hf-subset", "main"}, "--hf-subset needs --public-dataset"},
      {{"--public-dataset", "aimo", "--dataset-filter", "nokey"}, "--dataset-filter 'nokey' is not key=value"},
      {{"--public-dataset", "sharegpt", "--dataset-filter", "a=b"}, "--dataset-filter applies to tabular public datasets"},
      {{"--public-dataset", "aimo", "--hf-weka-dataset", "org/x"}, "--hf-weka-dataset cannot be combined with --public-dataset aimo"},
      {{"--public-dataset", "weka_hf"}, "--public-dataset weka_hf needs --hf-weka-dataset"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> a = {"-m", "mock-model", "-u", "http://127.0.0.1:9"};
    a.insert(a.end(), args.begin(), args.end());
    auto r = run_profile(dir, a, 10);
    EXPECT_EQ(r.exit_code, 2) << message;
    EXPECT_LT(r.wall_s, 1.0) << message;
    EXPECT_NE(r.stderr_text.find(message), std::string::npos) << r.stderr_text;
  }
}

}  // namespace
}  // namespace servebench::itest
