// Tabular public datasets: the descriptors' hub facts, and rows of each dataset's real column
// schema (Parquet written by pyarrow, scripts/parquet/make_public_dataset_fixtures.py; JSONL as
// the hub serves it) turned into prompts as AIPerf's loaders turn them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "dataset/parallel_counts.h"
#include "dataset/public_datasets.h"
#include "dataset/public_table.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SERVEBENCH_TEST_SOURCE_DIR) + "/tests/data/public_datasets/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_FALSE(ss.str().empty()) << name;
  return ss.str();
}

std::vector<std::string> prompts(const DatasetFile& f) {
  std::vector<std::string> out;
  for (const auto& c : f.conversations)
    for (const auto& t : c.turns) out.push_back(t.texts.at(0));
  return out;
}

const PublicDataset& dataset(const char* name) {
  auto d = find_public_dataset(name);
  EXPECT_TRUE(d) << name;
  return **d;
}

TEST(PublicTable, DescriptorsNameTheHubFilesAiperfReads) {
  std::set<std::string> names;
  for (const auto& d : public_datasets()) {
    EXPECT_TRUE(names.insert(d.name).second) << "duplicate " << d.name;
    EXPECT_FALSE(d.about.empty()) << d.name;
    if (d.kind == PublicKind::kTable) {
      EXPECT_FALSE(d.files.empty()) << d.name;
    }
  }
  EXPECT_EQ(dataset("aimo").repo_id, "AI-MO/NuminaMath-TIR");
  EXPECT_EQ(dataset("aimo").table.column, "problem");
  EXPECT_EQ(dataset("aimo_numina_cot").files.size(), 5u);
  EXPECT_EQ(dataset("aimo_numina_cot").files[4], "data/train-00004-of-00005.parquet");
  EXPECT_EQ(dataset("spec_al_gsm8k").subset, "main");
  EXPECT_EQ(dataset("spec_al_gsm8k").files[0], "{subset}/{split}-00000-of-00001.parquet");
  EXPECT_EQ(dataset("spec_al_mbpp").table.column, "text");
  EXPECT_EQ(dataset("spec_al_mtbench").revision, "main");
  EXPECT_EQ(dataset("instruct_coder").revision, "refs/convert/parquet");
  EXPECT_EQ(dataset("spec_al_mtbench").table.rule, TableRule::kTurnList);
  EXPECT_EQ(dataset("semianalysis_cc_traces_weka_062126").repo_id, "semianalysisai/cc-traces-weka-062126");
  EXPECT_EQ(dataset("semianalysis_cc_traces_weka_062126").format, FileFormat::kWekaTrace);
  EXPECT_NE(dataset("spec_bench").url.find("hemingkx/Spec-Bench"), std::string::npos);
}

TEST(PublicTable, NuminaRowsSkipBlankProblemsAndIgnoreTheStructColumn) {
  TableBuilder b("aimo", dataset("aimo").table, {});
  ASSERT_TRUE(b.add_parquet(fixture("numina.parquet"), "numina.parquet"));
  auto f = b.finish();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->format, FileFormat::kSingleTurn);
  EXPECT_EQ(prompts(*f), (std::vector<std::string>{"what is two plus three", "how many sides has a square"}));
  EXPECT_EQ(b.rows_skipped(), 1);
  EXPECT_EQ(f->conversations[0].session_id, "aimo-0");
}

TEST(PublicTable, InstructCoderPromptsAreItsInstructionColumn) {
  TableBuilder b("instruct_coder", dataset("instruct_coder").table, {});
  ASSERT_TRUE(b.add_parquet(fixture("instruct_coder.parquet"), "0000.parquet"));
  auto f = b.finish();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(prompts(*f), (std::vector<std::string>{"add a docstring to the function"}));
}

TEST(PublicTable, MtBenchRowsAreMultiTurnConversationsOfTrimmedTurns) {
  TableBuilder b("spec_al_mtbench", dataset("spec_al_mtbench").table, {});
  ASSERT_TRUE(b.add_parquet(fixture("mt_bench.parquet"), "mt_bench.parquet"));
  auto f = b.finish();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->format, FileFormat::kMultiTurn);
  ASSERT_EQ(f->conversations.size(), 2u);
  ASSERT_EQ(f->conversations[0].turns.size(), 2u);
  EXPECT_EQ(f->conversations[0].turns[1].texts[0], "now make it rhyme");
  EXPECT_EQ(f->conversations[1].turns.size(), 1u) << "a blank turn is dropped";
}

TEST(PublicTable, BlazeditFillsVllmsEditPromptFromTwoColumns) {
  TableBuilder b("blazedit_5k", dataset("blazedit_5k").table, {});
  ASSERT_TRUE(b.add_parquet(fixture("blazedit.parquet"), "blazedit.parquet"));
  auto f = b.finish();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(prompts(*f)[0],
            "Given a code file, please apply the change requests and generate the new file.\n\nOriginal file:\n"
            "```python\ndef add(a, b):\n    return a + b\n```\n\nChange request:\nrename the function to plus\n\n"
            "Please generate the new code file in the \"New file\" section below.");
}

TEST(PublicTable, SpecBenchTakesTheFirstTurnAndMath500ItsProblemColumn) {
  TableBuilder sb("spec_bench", dataset("spec_bench").table, {});
  ASSERT_TRUE(sb.add_jsonl(fixture("spec_bench_question.jsonl"), "q.jsonl"));
  auto f = sb.finish();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(prompts(*f), (std::vector<std::string>{"compose a travel blog post about a trip to the islands",
                                                    "if a train goes sixty miles an hour how far does it go in two hours"}));
  TableBuilder m("spec_al_math500", dataset("spec_al_math500").table, {{"level", "1"}});
  ASSERT_TRUE(m.add_jsonl(fixture("math500_test.jsonl"), "test.jsonl"));
  auto g = m.finish();
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(prompts(*g), (std::vector<std::string>{"what is the square of seven", "how many degrees are in a right angle"}));
  EXPECT_EQ(m.rows_filtered(), 1);
}

TEST(PublicTable, FiltersCompareIntegerColumnsByTheirTextAndNameUnknownColumns) {
  TableBuilder b("spec_al_mbpp", dataset("spec_al_mbpp").table, {{"task_id", "12"}});
  ASSERT_TRUE(b.add_parquet(fixture("mbpp_full_test.parquet"), "mbpp.parquet"));
  auto f = b.finish();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(prompts(*f), (std::vector<std::string>{"write a function to sort a list of numbers"}));

  TableBuilder bad("spec_al_mbpp", dataset("spec_al_mbpp").table, {{"difficulty", "hard"}});
  auto st = bad.add_parquet(fixture("mbpp_full_test.parquet"), "mbpp.parquet");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("--dataset-filter 'difficulty' is not a column of --public-dataset spec_al_mbpp"),
            std::string::npos)
      << st.error().message;
  EXPECT_NE(st.error().message.find("task_id, text, code"), std::string::npos) << st.error().message;

  TableBuilder none("spec_al_mbpp", dataset("spec_al_mbpp").table, {{"task_id", "99"}});
  ASSERT_TRUE(none.add_parquet(fixture("mbpp_full_test.parquet"), "mbpp.parquet"));
  auto empty = none.finish();
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("3 dropped by --dataset-filter"), std::string::npos) << empty.error().message;
}

TEST(PublicTable, AMissingPromptColumnListsTheFilesColumns) {
  TableBuilder b("aimo", dataset("aimo").table, {});
  auto st = b.add_parquet(fixture("gsm8k_main_test.parquet"), "x.parquet");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("column 'problem' is not in x.parquet row 0 (columns: question, answer)"),
            std::string::npos)
      << st.error().message;
}

TEST(PublicTable, TemplatesAndFilterTextParse) {
  TableRow row;
  row.fields.push_back({"a", TableValue{false, "x", {}}});
  auto ok = fill_template("{{{a}}} and {a}", row, "t");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, "{x} and x");
  auto missing = fill_template("{b}", row, "t");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("'b' is not a column (columns: a)"), std::string::npos);
  auto kv = parse_row_filter("level=Level 5");
  ASSERT_TRUE(kv);
  EXPECT_EQ(kv->first, "level");
  EXPECT_EQ(kv->second, "Level 5");
  EXPECT_FALSE(parse_row_filter("=x"));
  EXPECT_FALSE(parse_row_filter("level"));
}

// The hub cache as huggingface_hub leaves it (snapshots/<revision>/<file> when no ref names a
// commit), read offline.
struct OfflineHub {
  fs::path dir = fs::temp_directory_path() / ("sb_public_table_" + std::to_string(::getpid()));
  tokenizer::HubEnvironment env;
  OfflineHub() {
    env.cache_dir = (dir / "hub").string();
    env.endpoint = "http://127.0.0.1:9";
    env.offline = true;
  }
  ~OfflineHub() { fs::remove_all(dir); }
  void put(const std::string& repo, const std::string& rev, const std::string& file, const std::string& bytes) {
    std::string folder = "datasets--" + repo;
    folder.replace(folder.find('/'), 1, "--");
    const fs::path p = dir / "hub" / folder / "snapshots" / rev / file;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
  }
};

TEST(PublicTable, SubsetsPickTheirFilesAndShardsAreConcatenated) {
  OfflineHub hub;
  hub.put("openai/gsm8k", "main", "main/test-00000-of-00001.parquet", fixture("gsm8k_main_test.parquet"));
  hub.put("openai/gsm8k", "main", "socratic/test-00000-of-00001.parquet", fixture("gsm8k_socratic_test.parquet"));
  auto main_rows = load_public_dataset(dataset("spec_al_gsm8k"), {}, hub.env);
  ASSERT_TRUE(main_rows) << main_rows.error().message;
  EXPECT_EQ(main_rows->conversations.size(), 2u);
  PublicDatasetOptions o;
  o.subset = "socratic";
  auto socratic = load_public_dataset(dataset("spec_al_gsm8k"), o, hub.env);
  ASSERT_TRUE(socratic) << socratic.error().message;
  EXPECT_EQ(prompts(*socratic), (std::vector<std::string>{"how many legs do two birds have in total"}));

  for (int i = 0; i < 3; ++i)
    hub.put("AI-MO/NuminaMath-1.5", "main", "data/train-0000" + std::to_string(i) + "-of-00003.parquet",
            fixture("numina.parquet"));
  auto shards = load_public_dataset(dataset("aimo_numina_1_5"), {}, hub.env);
  ASSERT_TRUE(shards) << shards.error().message;
  EXPECT_EQ(shards->conversations.size(), 6u);
  EXPECT_EQ(shards->conversations.back().session_id, "aimo_numina_1_5-5");
}

TEST(PublicTable, OptionMisuseIsOneLineNamingTheFlag) {
  PublicDatasetOptions sub;
  sub.subset = "main";
  auto st = check_public_dataset_options(dataset("aimo"), sub);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message, "--hf-subset main: --public-dataset aimo has no subsets; drop --hf-subset");
  sub.subset = "../x";
  EXPECT_FALSE(check_public_dataset_options(dataset("spec_al_gsm8k"), sub));
  PublicDatasetOptions weka;
  weka.weka_repo = "semianalysisai/cc-traces-weka-062126";
  st = check_public_dataset_options(dataset("aimo"), weka);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("cannot be combined with --public-dataset aimo"), std::string::npos);
  EXPECT_TRUE(check_public_dataset_options(dataset("weka_hf"), weka));
  EXPECT_FALSE(check_public_dataset_options(dataset("weka_hf"), {}));
  weka.weka_repo = "no-slash";
  EXPECT_FALSE(check_public_dataset_options(dataset("weka_hf"), weka));
  PublicDatasetOptions filt;
  filt.filters = {{"a", "b"}};
  EXPECT_FALSE(check_public_dataset_options(dataset("sharegpt"), filt));
}

TEST(PublicTable, WekaCorporaAreTracesJsonlOneTraceALine) {
  OfflineHub hub;
  hub.put("org/my-weka", "main", "traces.jsonl", fixture("weka_traces.jsonl"));
  PublicDatasetOptions o;
  o.weka_repo = "org/my-weka";
  auto f = load_public_dataset(dataset("weka_hf"), o, hub.env);
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->format, FileFormat::kWekaTrace);
  ASSERT_EQ(f->conversations.size(), 2u);
  EXPECT_EQ(f->conversations[0].session_id, "t1");
  EXPECT_EQ(f->conversations[0].turns.size(), 2u);
  EXPECT_EQ(f->conversations[0].turns[1].input_length, 192);
}

TEST(PublicTable, SpecBenchIsReadFromAiperfsDownloadCache) {
  OfflineHub hub;
  fs::create_directories(hub.dir / "aiperf");
  std::ofstream(hub.dir / "aiperf" / "spec_bench.jsonl") << fixture("spec_bench_question.jsonl");
  auto f = load_public_dataset(dataset("spec_bench"), {}, hub.env, (hub.dir / "aiperf").string());
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->conversations.size(), 2u);
  auto miss = load_public_dataset(dataset("spec_bench"), {}, hub.env, (hub.dir / "nowhere").string());
  ASSERT_FALSE(miss);
  EXPECT_NE(miss.error().message.find("HF_HUB_OFFLINE=1"), std::string::npos) << miss.error().message;
}

}  // namespace
}  // namespace servebench::dataset

namespace servebench::dataset {
namespace {

TEST(ParallelCounts, EveryIndexRunsOnceOnEveryThreadCount) {
  for (unsigned threads : {1u, 2u, 3u, 8u, 64u}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{1000}}) {
      std::vector<std::atomic<int>> hits(n);
      parallel_for(n, threads, [&](size_t i) { hits[i].fetch_add(1); });
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(hits[i].load(), 1) << "n " << n << " threads " << threads << " i " << i;
    }
  }
  EXPECT_EQ(count_threads(10), 1u) << "small files are counted inline";
  EXPECT_GE(count_threads(1'000'000), 1u);
  EXPECT_LE(count_threads(1'000'000), 8u);
}

}  // namespace
}  // namespace servebench::dataset
