// dataset/trace_synthesis.h: --synthesis-* on a small mooncake trace (block size 16): shared
// prefixes stay shared and scale, unique parts scale, timestamps speed up, max-isl drops and
// max-osl caps; then the prompts built from the result have the synthesized lengths exactly and
// share text exactly where the synthesized hash ids are shared.
#include "dataset/trace_synthesis.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dataset/file_workload.h"
#include "dataset/synthetic_prompts.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

constexpr int64_t kBlock = 16;

// Tree: ids 1 (rows 0-2) and 2 (rows 0-1) are shared; the rest are unique; row 4 has no ids.
const char* kTrace =
    "{\"timestamp\": 0, \"input_length\": 40, \"output_length\": 10, \"hash_ids\": [1, 2, 3]}\n"
    "{\"timestamp\": 100, \"input_length\": 48, \"output_length\": 20, \"hash_ids\": [1, 2, 4]}\n"
    "{\"timestamp\": 200, \"input_length\": 20, \"output_length\": 30, \"hash_ids\": [1, 5]}\n"
    "{\"timestamp\": 300, \"input_length\": 64, \"output_length\": 40, \"hash_ids\": [6, 7, 8, 9]}\n"
    "{\"timestamp\": 400, \"input_length\": 12, \"output_length\": 5}\n";

DatasetFile load(const char* text = kTrace) {
  auto f = parse_dataset_text(text, FileFormat::kMooncakeTrace, "t.jsonl");
  EXPECT_TRUE(f) << (f ? "" : f.error().message);
  return f ? *f : DatasetFile{};
}

const FileTurn& row(const DatasetFile& f, size_t i) { return f.conversations.at(i).turns.at(0); }

std::vector<int64_t> head(const FileTurn& t, size_t n) { return {t.hash_ids.begin(), t.hash_ids.begin() + n}; }

DatasetFile synthesize(TraceSynthesisOptions o, const char* text = kTrace) {
  DatasetFile f = load(text);
  o.block_size = kBlock;
  auto r = synthesize_trace(o, &f);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return f;
}

TEST(TraceSynthesis, PrefixLengthMultiplierStretchesSharedPrefixesKeepingThemShared) {
  TraceSynthesisOptions o;
  o.prefix_len_multiplier = 2;
  DatasetFile f = synthesize(o);
  // Row 0: 2 shared blocks -> 4, then its 8 unique tokens: 4*16 + 8.
  EXPECT_EQ(row(f, 0).input_length, 72);
  EXPECT_EQ(row(f, 0).hash_ids.size(), 5u);
  EXPECT_EQ(row(f, 1).input_length, 80);  // 4*16 + 16
  EXPECT_EQ(row(f, 2).input_length, 36);  // 1 shared block -> 2, + 4 unique
  EXPECT_EQ(row(f, 3).input_length, 64);  // nothing shared
  EXPECT_EQ(row(f, 4).input_length, 12);  // no hash ids: all unique, multiplier 1
  // Same recorded prefix -> same new ids; the unique tails differ.
  EXPECT_EQ(head(row(f, 0), 4), head(row(f, 1), 4));
  EXPECT_NE(row(f, 0).hash_ids[4], row(f, 1).hash_ids[4]);
  // Row 2 shared only block 1 with them: its 2 stretched blocks are theirs, the rest is not.
  EXPECT_EQ(head(row(f, 2), 2), head(row(f, 0), 2));
  EXPECT_NE(row(f, 2).hash_ids[2], row(f, 0).hash_ids[2]);
  std::set<int64_t> others;
  for (size_t i : {0u, 1u, 2u})
    for (int64_t id : row(f, i).hash_ids) others.insert(id);
  for (int64_t id : row(f, 3).hash_ids) EXPECT_EQ(others.count(id), 0u) << id;
}

TEST(TraceSynthesis, ShrinkingThePrefixAndScalingPrompts) {
  TraceSynthesisOptions o;
  o.prefix_len_multiplier = 0.5;
  o.prompt_len_multiplier = 2;
  DatasetFile f = synthesize(o);
  EXPECT_EQ(row(f, 0).input_length, 16 + 16);  // 2 shared -> 1 block, 8 unique -> 16
  EXPECT_EQ(row(f, 1).input_length, 16 + 32);
  EXPECT_EQ(row(f, 2).input_length, 16 + 8);   // 1 shared -> max(1, 0) = 1 block
  EXPECT_EQ(row(f, 3).input_length, 128);
  EXPECT_EQ(row(f, 4).input_length, 24);
  EXPECT_EQ(row(f, 0).hash_ids[0], row(f, 1).hash_ids[0]);
  // Rows 0 and 2 shared one block of two; at half length they share floor(0.5) = 0.
  EXPECT_NE(row(f, 0).hash_ids[0], row(f, 2).hash_ids[0]);
  // Every row's hash ids cover its length exactly (the last block partial or full).
  for (size_t i = 0; i < 4; ++i) {
    const auto& t = row(f, i);
    const auto n = static_cast<int64_t>(t.hash_ids.size());
    EXPECT_GT(t.input_length - (n - 1) * kBlock, 0) << i;
    EXPECT_LE(t.input_length - (n - 1) * kBlock, kBlock) << i;
  }
}

TEST(TraceSynthesis, FractionalMultiplierRoundsUpBlocks) {
  TraceSynthesisOptions o;
  o.prefix_len_multiplier = 1.1;  // 10 shared blocks -> ceil(11.000000000000002) must be 11
  std::string text;
  for (int r = 0; r < 2; ++r) {
    text += "{\"input_length\": 176, \"hash_ids\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, " + std::to_string(100 + r) + "]}\n";
  }
  DatasetFile f = synthesize(o, text.c_str());
  EXPECT_EQ(row(f, 0).hash_ids.size(), 12u);
  EXPECT_EQ(row(f, 0).input_length, 11 * 16 + 16);
  EXPECT_EQ(head(row(f, 0), 11), head(row(f, 1), 11));
}

TEST(TraceSynthesis, PartialSharedLastBlockStaysPartial) {
  TraceSynthesisOptions o;
  o.prefix_len_multiplier = 2;
  DatasetFile f = synthesize(o, "{\"input_length\": 20, \"hash_ids\": [46, 47]}\n"
                                "{\"input_length\": 20, \"hash_ids\": [46, 47]}\n");
  EXPECT_EQ(row(f, 0).input_length, 3 * 16 + 4);
  EXPECT_EQ(row(f, 0).hash_ids, row(f, 1).hash_ids);
  EXPECT_EQ(row(f, 0).hash_ids.size(), 4u);
}

TEST(TraceSynthesis, RootMultiplierSpreadsConversationsOverIndependentTrees) {
  std::string text;
  for (int r = 0; r < 40; ++r) text += "{\"input_length\": 40, \"hash_ids\": [1, 2, " + std::to_string(10 + r) + "]}\n";
  TraceSynthesisOptions o;
  o.prefix_root_multiplier = 4;
  o.seed = 7;
  DatasetFile f = synthesize(o, text.c_str());
  std::map<int64_t, std::vector<int64_t>> by_root;  // first id -> the row's first two ids
  for (size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(row(f, i).input_length, 40);
    const auto& ids = row(f, i).hash_ids;
    auto [it, fresh] = by_root.try_emplace(ids[0], head(row(f, i), 2));
    if (!fresh) {
      EXPECT_EQ(it->second, head(row(f, i), 2)) << "same tree, same prefix";
    }
  }
  EXPECT_GT(by_root.size(), 1u);
  EXPECT_LE(by_root.size(), 4u);
  std::set<int64_t> second;
  for (const auto& [first, ids] : by_root) second.insert(ids[1]);
  EXPECT_EQ(second.size(), by_root.size()) << "trees share no block";
}

TEST(TraceSynthesis, SpeedupOutputMultiplierAndMaxOsl) {
  TraceSynthesisOptions o;
  o.speedup_ratio = 4;
  o.output_len_multiplier = 1.5;
  o.max_osl = 40;
  DatasetFile f = load();
  o.block_size = kBlock;
  auto r = synthesize_trace(o, &f);
  ASSERT_TRUE(r) << r.error().message;
  const double ts[] = {0, 25, 50, 75, 100};
  const int64_t osl[] = {15, 30, 40, 40, 8};  // 45 and 60 capped; 7.5 rounds to 8
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(row(f, i).timestamp_ms, ts[i]) << i;
    EXPECT_EQ(row(f, i).output_length, osl[i]) << i;
  }
  EXPECT_EQ(r->capped_max_osl, 2);
  EXPECT_EQ(row(f, 0).hash_ids, (std::vector<int64_t>{1, 2, 3})) << "no reshaping asked";
  EXPECT_EQ(row(f, 3).input_length, 64);
}

TEST(TraceSynthesis, MaxIslDropsLongerRowsAndCapsSynthesizedOnes) {
  TraceSynthesisOptions o;
  o.max_isl = 45;
  o.prefix_len_multiplier = 2;
  DatasetFile f = load();
  o.block_size = kBlock;
  auto r = synthesize_trace(o, &f);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->dropped_max_isl, 2);  // the 48- and 64-token rows
  ASSERT_EQ(f.conversations.size(), 3u);
  EXPECT_EQ(row(f, 0).input_length, 45);  // 72 after stretching, capped
  EXPECT_EQ(row(f, 0).hash_ids.size(), 3u);
  EXPECT_EQ(row(f, 1).input_length, 36);  // the old row 2
  EXPECT_EQ(row(f, 2).input_length, 12);

  TraceSynthesisOptions all;
  all.max_isl = 5;
  DatasetFile g = load();
  auto none = synthesize_trace(all, &g);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("--synthesis-max-isl 5"), std::string::npos) << none.error().message;
}

// The prompts built from a synthesized trace: exact lengths, and shared text exactly where the
// synthesized ids are shared.
TEST(TraceSynthesis, PromptsFollowTheSynthesizedStructure) {
  auto tok = *tokenizer::load_tokenizer("builtin");
  auto corpus = load_corpus(tokenizer::testing::source_dir() + "/data/corpus/mobydick.txt");
  ASSERT_TRUE(corpus);
  auto builder = ExactPromptBuilder::create(*corpus, *tok);
  ASSERT_TRUE(builder);
  TraceSynthesisOptions o;
  o.prefix_len_multiplier = 2;
  o.prompt_len_multiplier = 1.5;
  DatasetFile f = synthesize(o);
  FileWorkloadOptions wo;
  wo.block_size = kBlock;
  wo.seed = 3;
  auto w = build_file_workload(f, *tok, *builder, wo);
  ASSERT_TRUE(w) << w.error().message;
  std::vector<std::string> text;
  for (size_t i = 0; i < 5; ++i) {
    const auto& t = w->conversations[i].turns[0];
    EXPECT_EQ(t.input_tokens, row(f, i).input_length);
    EXPECT_EQ(static_cast<int64_t>(tok->count(t.text)), row(f, i).input_length) << i;
    text.push_back(t.text);
  }
  auto common_tokens = [&](const std::string& a, const std::string& b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return static_cast<int64_t>(tok->count(a.substr(0, n)));
  };
  // Rows 0 and 1 share 4 blocks (64 tokens), rows 0 and 2 two (32), rows 0 and 3 none.
  EXPECT_GE(common_tokens(text[0], text[1]), 63);
  EXPECT_LT(common_tokens(text[0], text[1]), 70);
  EXPECT_GE(common_tokens(text[0], text[2]), 31);
  EXPECT_LT(common_tokens(text[0], text[2]), 40);
  EXPECT_LT(common_tokens(text[0], text[3]), 3);
}

}  // namespace
}  // namespace servebench::dataset
