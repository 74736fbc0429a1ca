// baseten_trace: Parquet trace rows -> sessions, timestamps, bodies and replay modes, on files
// written by pyarrow (scripts/parquet/make_baseten_fixtures.py).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "dataset/loaders/baseten_trace.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  return fs::path(src ? src : ".");
}
fs::path fixture(const char* name) { return source_dir() / "tests/data/parquet/baseten" / name; }
std::string example_path() { return (source_dir() / "examples/baseten_trace.parquet").string(); }

DatasetFile load(const fs::path& p, BasetenOptions o = {}) {
  auto f = load_baseten_trace(p.string(), o);
  EXPECT_TRUE(f.has_value()) << (f ? "" : f.error().message);
  return f ? std::move(*f) : DatasetFile{};
}

const FileConversation* find(const DatasetFile& f, const std::string& id) {
  for (const auto& c : f.conversations)
    if (c.session_id == id) return &c;
  return nullptr;
}

TEST(Baseten, GroupsSessionsAndNormalisesTimestamps) {
  const DatasetFile f = load(example_path());
  EXPECT_EQ(f.format, FileFormat::kBasetenTrace);
  EXPECT_TRUE(f.has_timestamps);
  EXPECT_EQ(f.lines, 12);
  // s1..s4 plus three rows without a session key.
  EXPECT_EQ(f.conversations.size(), 7u);
  const FileConversation* s1 = find(f, "s1");
  ASSERT_NE(s1, nullptr);
  ASSERT_EQ(s1->turns.size(), 3u);
  EXPECT_EQ(s1->turns[0].timestamp_ms, 0);
  EXPECT_EQ(s1->turns[1].timestamp_ms, 150);
  EXPECT_EQ(s1->turns[2].timestamp_ms, 340);
  EXPECT_EQ(s1->turns[2].texts, std::vector<std::string>{"Summarise both in one sentence."});
  // Sessions ordered by their first timestamp.
  double last = -1;
  for (const auto& c : f.conversations) {
    EXPECT_GE(c.turns.front().timestamp_ms, last);
    last = c.turns.front().timestamp_ms;
  }
}

TEST(Baseten, BodiesCarryMinTokensAndKvHints) {
  const DatasetFile f = load(example_path());
  const FileConversation* s1 = find(f, "s1");
  ASSERT_NE(s1, nullptr);
  EXPECT_EQ(s1->turns[0].output_length, 24);
  EXPECT_EQ(s1->turns[0].extra_json, R"({"min_tokens":24,"hash_ids":[1,2],"block_size":16})");
  // output_tokens 0 is floored to 1, for both max and min tokens.
  const FileConversation* s3 = find(f, "s3");
  ASSERT_NE(s3, nullptr);
  EXPECT_EQ(s3->turns[1].output_length, 1);
  EXPECT_EQ(s3->turns[1].extra_json, R"({"min_tokens":1,"hash_ids":[3,5],"block_size":16})");
  // An empty hash list sends no hash_ids.
  const FileConversation* s4 = find(f, "s4");
  ASSERT_NE(s4, nullptr);
  EXPECT_EQ(s4->turns[1].extra_json, R"({"min_tokens":8,"block_size":16})");

  BasetenOptions o;
  o.omit_kv_hints = true;
  o.force_min_tokens = false;
  const DatasetFile bare = load(example_path(), o);
  for (const auto& c : bare.conversations)
    for (const auto& t : c.turns) EXPECT_EQ(t.extra_json, "");
}

TEST(Baseten, NullPromptsBecomeExactLengthRows) {
  const DatasetFile f = load(example_path());
  const FileConversation* s2 = find(f, "s2");
  ASSERT_NE(s2, nullptr);
  ASSERT_EQ(s2->turns.size(), 2u);
  EXPECT_TRUE(s2->turns[0].texts.empty());
  EXPECT_EQ(s2->turns[0].input_length, 64);
  EXPECT_EQ(s2->turns[1].input_length, 96);
  // Their KV hashes become shared synthesis blocks of the file's block size.
  EXPECT_EQ(f.default_block_size, 16);
  EXPECT_EQ(s2->turns[0].hash_ids, (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(s2->turns[1].hash_ids, (std::vector<int64_t>{7, 8, 9, 10}));
  const FileConversation* s4 = find(f, "s4");
  ASSERT_NE(s4, nullptr);
  EXPECT_EQ(s4->turns[0].hash_ids, (std::vector<int64_t>{11, 12}));  // 128 > 16: tail is fresh
  EXPECT_TRUE(s4->turns[1].hash_ids.empty());
  // Rows with a prompt send it verbatim and synthesize nothing.
  EXPECT_EQ(find(f, "s1")->turns[0].input_length, -1);
}

TEST(Baseten, RowOrderInTheFileDoesNotMatter) {
  const DatasetFile a = load(example_path());
  const DatasetFile b = load(fixture("shuffled.parquet"));
  ASSERT_EQ(a.conversations.size(), b.conversations.size());
  for (size_t i = 0; i < a.conversations.size(); ++i) {
    const auto& ca = a.conversations[i];
    const auto& cb = b.conversations[i];
    ASSERT_EQ(ca.turns.size(), cb.turns.size());
    if (ca.session_id.rfind("row-", 0) != 0) {
      EXPECT_EQ(ca.session_id, cb.session_id);
    }
    for (size_t t = 0; t < ca.turns.size(); ++t) {
      EXPECT_EQ(ca.turns[t].timestamp_ms, cb.turns[t].timestamp_ms);
      EXPECT_EQ(ca.turns[t].extra_json, cb.turns[t].extra_json);
    }
  }
}

TEST(Baseten, SessionKeyFallsBackToPoorManIdThenToOneRowSessions) {
  const DatasetFile pm = load(fixture("poor_man_key.parquet"));
  const FileConversation* one = find(pm, "1");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->turns.size(), 3u);
  const DatasetFile none = load(fixture("no_key.parquet"));
  EXPECT_EQ(none.conversations.size(), 12u);
}

TEST(Baseten, ConfiguredSessionColumnWinsWhenPresent) {
  BasetenOptions o;
  o.session_column = "poor_man_session_id";
  const DatasetFile f = load(example_path(), o);
  EXPECT_EQ(find(f, "s1"), nullptr);
  const FileConversation* one = find(f, "1");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->turns.size(), 3u);
  // A file without the configured column falls back to the other one.
  const DatasetFile pm = load(fixture("poor_man_key.parquet"), BasetenOptions{});
  EXPECT_NE(find(pm, "1"), nullptr);
}

std::vector<double> offsets(const DatasetFile& f) {
  std::vector<double> out;
  for (const auto& c : f.conversations)
    for (const auto& t : c.turns) out.push_back(t.timestamp_ms);
  return out;
}

TEST(Baseten, OpenLoopKeepsOffsetsAndSpeedupDividesThem) {
  // Rows (s1, 1000, e2e 400), (s2, 1500), (s1, 2100), (s3, 62000).
  EXPECT_EQ(offsets(load(fixture("doc_example.parquet"))),
            (std::vector<double>{0, 1100, 500, 61000}));
  BasetenOptions o;
  o.speedup = 2;
  EXPECT_EQ(offsets(load(fixture("doc_example.parquet"), o)),
            (std::vector<double>{0, 550, 250, 30500}));
}

TEST(Baseten, ClosedLoopThinkTimeIsTheGapMinusTheRecordedLatency) {
  BasetenOptions o;
  o.open_loop = false;
  const DatasetFile f = load(fixture("doc_example.parquet"), o);
  const FileConversation* s1 = find(f, "s1");
  ASSERT_NE(s1, nullptr);
  EXPECT_EQ(s1->turns[0].timestamp_ms, 0);
  EXPECT_EQ(s1->turns[1].timestamp_ms, -1);
  EXPECT_DOUBLE_EQ(s1->turns[1].delay_ms, 700);
  o.speedup = 2;
  EXPECT_DOUBLE_EQ(find(load(fixture("doc_example.parquet"), o), "s1")->turns[1].delay_ms, 350);
  o.speedup = 1;
  o.inter_turn_delay_cap_ms = 500;
  EXPECT_DOUBLE_EQ(find(load(fixture("doc_example.parquet"), o), "s1")->turns[1].delay_ms, 500);
}

TEST(Baseten, IdleGapCapShrinksLongGaps) {
  BasetenOptions o;
  o.max_idle_gap_cap_ms = 5000;
  EXPECT_EQ(offsets(load(fixture("doc_example.parquet"), o)),
            (std::vector<double>{0, 1100, 500, 6100}));
  o.open_loop = false;  // only session starts are scheduled events
  EXPECT_EQ(offsets(load(fixture("doc_example.parquet"), o)),
            (std::vector<double>{0, -1, 500, 5500}));
}

TEST(Baseten, StrictOpenLoopMakesEveryRowItsOwnSession) {
  BasetenOptions o;
  o.open_loop_strict = true;
  const DatasetFile f = load(fixture("doc_example.parquet"), o);
  ASSERT_EQ(f.conversations.size(), 4u);
  EXPECT_EQ(f.conversations[0].session_id, "s1#0");
  EXPECT_EQ(f.conversations[1].session_id, "s2#0");
  EXPECT_EQ(f.conversations[2].session_id, "s1#1");
  EXPECT_EQ(f.conversations[2].turns[0].timestamp_ms, 1100);
}

TEST(Baseten, SessionSamplingKeepsWholeSessionsDeterministically) {
  BasetenOptions o;
  o.sample_ratio = 0.5;
  o.seed = 42;
  const DatasetFile a = load(example_path(), o);
  const DatasetFile b = load(example_path(), o);
  ASSERT_EQ(a.conversations.size(), b.conversations.size());
  EXPECT_LT(a.conversations.size(), 7u);
  for (size_t i = 0; i < a.conversations.size(); ++i) {
    EXPECT_EQ(a.conversations[i].session_id, b.conversations[i].session_id);
    if (a.conversations[i].session_id == "s1") {
      EXPECT_EQ(a.conversations[i].turns.size(), 3u);
    }
  }
  o.sample_ratio = 1e-9;
  EXPECT_EQ(load(example_path(), o).conversations.size(), 1u);
  // Different seeds pick different subsets for some seed.
  bool differs = false;
  for (uint64_t seed = 1; seed < 20 && !differs; ++seed) {
    o.sample_ratio = 0.5;
    o.seed = seed;
    differs = load(example_path(), o).conversations.size() != a.conversations.size();
  }
  EXPECT_TRUE(differs);
}

TEST(Baseten, MissingColumnsAndBadValuesAreNamed) {
  auto missing = load_baseten_trace(fixture("no_output_tokens.parquet").string(), {});
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("'output_tokens'"), std::string::npos)
      << missing.error().message;
  EXPECT_TRUE(missing.error().is_usage());
  auto negative = load_baseten_trace(fixture("negative_input.parquet").string(), {});
  ASSERT_FALSE(negative.has_value());
  EXPECT_NE(negative.error().message.find("column 'input_tokens'"), std::string::npos)
      << negative.error().message;
  EXPECT_NE(negative.error().message.find("row "), std::string::npos);
  auto not_parquet = parse_baseten_trace("{\"a\":1}\n", "t.jsonl", {});
  ASSERT_FALSE(not_parquet.has_value());
  EXPECT_TRUE(not_parquet.error().is_usage());
}

TEST(Baseten, FormatIsNamedAndDetected) {
  auto named = parse_file_format("baseten_trace");
  ASSERT_TRUE(named.has_value());
  EXPECT_EQ(*named, FileFormat::kBasetenTrace);
  EXPECT_STREQ(file_format_name(FileFormat::kBasetenTrace), "baseten_trace");
  auto detected = detect_file_format(example_path());
  ASSERT_TRUE(detected.has_value()) << detected.error().message;
  EXPECT_EQ(*detected, FileFormat::kBasetenTrace);
  auto loaded = load_dataset_file(example_path(), std::nullopt);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->conversations.size(), 7u);
}

}  // namespace
}  // namespace servebench::dataset
