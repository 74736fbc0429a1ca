#include "dataset/file_workload.h"

#include <gtest/gtest.h>

#include "dataset/synthetic_prompts.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

namespace tt = tokenizer::testing;

struct Fixture {
  std::shared_ptr<const tokenizer::Tokenizer> tok;
  std::optional<ExactPromptBuilder> builder;
};

const Fixture& fx() {
  static const Fixture f = [] {
    Fixture f;
    f.tok = *tokenizer::load_tokenizer("builtin");
    auto corpus = load_corpus(tt::source_dir() + "/data/corpus/mobydick.txt");
    f.builder.emplace(*ExactPromptBuilder::create(*corpus, *f.tok));
    return f;
  }();
  return f;
}

Result<FileWorkload> build(std::string_view text, FileFormat format, FileWorkloadOptions o = {}) {
  auto file = parse_dataset_text(text, format, "t.jsonl");
  if (!file) return tl::unexpected(file.error());
  return build_file_workload(*file, *fx().tok, *fx().builder, o);
}

TEST(FileWorkload, MooncakeHashIdRowsHaveExactLengthAndSharedBlocks) {
  auto w = build(
      "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 10, \"hash_ids\": [1, 2, 3]}\n"
      "{\"timestamp\": 5, \"input_length\": 1300, \"output_length\": 10, \"hash_ids\": [1, 2, 4]}\n"
      "{\"timestamp\": 9, \"input_length\": 2000, \"hash_ids\": [1, 2]}\n"
      "{\"timestamp\": 12, \"input_length\": 37}\n",
      FileFormat::kMooncakeTrace);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->conversations.size(), 4u);
  EXPECT_TRUE(w->has_timestamps);
  const int64_t want[] = {1100, 1300, 2000, 37};
  for (size_t i = 0; i < 4; ++i) {
    const auto& t = w->conversations[i].turns[0];
    EXPECT_EQ(t.input_tokens, want[i]);
    EXPECT_EQ(static_cast<int64_t>(fx().tok->count(t.text)), want[i]) << "row " << i;
  }
  // Blocks 1 and 2 (1024 tokens) are the same text in rows 0, 1 and 2.
  const auto& a = w->conversations[0].turns[0].text;
  const auto& b = w->conversations[1].turns[0].text;
  const auto& c = w->conversations[2].turns[0].text;
  size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  EXPECT_GE(static_cast<int64_t>(fx().tok->count(a.substr(0, common))), 1000);
  // Row 2 has the same two full blocks, then a fresh tail.
  EXPECT_EQ(c.compare(0, common, a, 0, common), 0);
  EXPECT_EQ(w->conversations[0].turns[0].max_output_tokens, 10);
}

TEST(FileWorkload, BailianBlocksOf16) {
  auto w = build(
      "{\"chat_id\": 1, \"parent_chat_id\": -1, \"timestamp\": 0, \"input_length\": 40, \"output_length\": 3, \"hash_ids\": [7, 8, 9]}\n"
      "{\"chat_id\": 2, \"parent_chat_id\": 1, \"timestamp\": 1, \"input_length\": 35, \"output_length\": 3, \"hash_ids\": [7, 8, 10]}\n",
      FileFormat::kBailianTrace);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->conversations.size(), 1u);
  ASSERT_EQ(w->conversations[0].turns.size(), 2u);
  for (const auto& t : w->conversations[0].turns)
    EXPECT_EQ(static_cast<int64_t>(fx().tok->count(t.text)), t.input_tokens);
  EXPECT_EQ(w->conversations[0].turns[1].timestamp_ms, 1000);
}

TEST(FileWorkload, TooManyBlocksForTheLengthIsAnError) {
  auto w = build("{\"input_length\": 600, \"hash_ids\": [1, 2, 3]}\n", FileFormat::kMooncakeTrace);
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("line 1"), std::string::npos);
  EXPECT_NE(w.error().message.find("hash_ids"), std::string::npos);
  FileWorkloadOptions o;
  o.block_size = 100;  // --isl-block-size makes it valid
  auto ok = build("{\"input_length\": 250, \"hash_ids\": [1, 2, 3]}\n", FileFormat::kMooncakeTrace, o);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(static_cast<int64_t>(fx().tok->count(ok->conversations[0].turns[0].text)), 250);
}

TEST(FileWorkload, TextRowsAreCountedAndSystemTurnHoisted) {
  auto w = build(
      "{\"session_id\": \"s\", \"turns\": [{\"text\": \"You are terse.\", \"role\": \"system\"}, "
      "{\"texts\": [\"Hello\", \"world\"]}, {\"text\": \"Again\", \"delay\": 50}]}\n",
      FileFormat::kMultiTurn);
  ASSERT_TRUE(w) << w.error().message;
  const auto& c = w->conversations[0];
  EXPECT_EQ(c.system_prompt, "You are terse.");
  ASSERT_EQ(c.turns.size(), 2u);
  EXPECT_EQ(c.turns[0].text, "Hello world");
  EXPECT_EQ(c.turns[0].input_tokens, static_cast<int64_t>(fx().tok->count("Hello world")));
  EXPECT_DOUBLE_EQ(c.turns[1].delay_ms, 50);
  EXPECT_TRUE(w->multi_turn_history);
}

TEST(FileWorkload, ShareGptLengthFilters) {
  std::string long_prompt;
  for (int i = 0; i < 1200; ++i) long_prompt += " whale";
  const std::string json =
      "[{\"id\": \"a\", \"conversations\": [{\"from\": \"human\", \"value\": \"Tell me a story about the sea\"}, "
      "{\"from\": \"gpt\", \"value\": \"Once upon a time there was a great white whale.\"}]},"
      " {\"id\": \"short\", \"conversations\": [{\"from\": \"human\", \"value\": \"Hi\"}, {\"from\": \"gpt\", \"value\": \"Hello there friend!\"}]},"
      " {\"id\": \"long\", \"conversations\": [{\"from\": \"human\", \"value\": \"" + long_prompt + "\"}, {\"from\": \"gpt\", \"value\": \"ok ok ok ok ok\"}]}]";
  auto w = build(json, FileFormat::kShareGpt);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->conversations.size(), 1u);
  EXPECT_EQ(w->filtered_out, 2);
  EXPECT_EQ(w->conversations[0].turns[0].max_output_tokens,
            static_cast<int64_t>(fx().tok->count("Once upon a time there was a great white whale.")));
}

TEST(FileWorkload, PublicShareGptKeepsWholeConversationsOrDropsThem) {
  // AIPerf's public ShareGPT: every human/gpt exchange is a turn; one failing exchange drops the
  // conversation. The per-exchange mode of a ShareGPT file keeps the good exchanges instead.
  const std::string json =
      "[{\"id\": \"two\", \"conversations\": ["
      "{\"from\": \"human\", \"value\": \"Tell me a story about the sea\"},"
      "{\"from\": \"gpt\", \"value\": \"Once upon a time there was a great white whale.\"},"
      "{\"from\": \"human\", \"value\": \"And what happened to the whale then?\"},"
      "{\"from\": \"gpt\", \"value\": \"It swam far away and was never seen again by anyone.\"}]},"
      " {\"id\": \"mixed\", \"conversations\": ["
      "{\"from\": \"human\", \"value\": \"Describe the harbour at dawn please\"},"
      "{\"from\": \"gpt\", \"value\": \"Grey water, gulls, and the smell of salt and tar.\"},"
      "{\"from\": \"human\", \"value\": \"Hi\"}, {\"from\": \"gpt\", \"value\": \"Hello there my friend!\"}]}]";
  FileWorkloadOptions whole;
  whole.sharegpt_whole_conversations = true;
  auto w = build(json, FileFormat::kShareGpt, whole);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_TRUE(w->multi_turn_history);
  ASSERT_EQ(w->conversations.size(), 1u);
  EXPECT_EQ(w->conversations[0].session_id, "two");
  ASSERT_EQ(w->conversations[0].turns.size(), 2u);
  EXPECT_EQ(w->conversations[0].turns[1].text, "And what happened to the whale then?");
  EXPECT_EQ(w->conversations[0].turns[1].max_output_tokens,
            static_cast<int64_t>(fx().tok->count("It swam far away and was never seen again by anyone.")));
  EXPECT_EQ(w->filtered_out, 1);

  auto per_exchange = build(json, FileFormat::kShareGpt);
  ASSERT_TRUE(per_exchange);
  EXPECT_FALSE(per_exchange->multi_turn_history);
  ASSERT_EQ(per_exchange->conversations.size(), 2u);
  EXPECT_EQ(per_exchange->conversations[1].turns.size(), 1u) << "the short exchange alone is dropped";
}

TEST(FileWorkload, SameSeedSameTexts) {
  const char* trace = "{\"input_length\": 300, \"hash_ids\": [5]}\n{\"input_length\": 77}\n";
  auto a = build(trace, FileFormat::kMooncakeTrace);
  auto b = build(trace, FileFormat::kMooncakeTrace);
  FileWorkloadOptions other;
  other.seed = 99;
  auto c = build(trace, FileFormat::kMooncakeTrace, other);
  ASSERT_TRUE(a && b && c);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(a->conversations[i].turns[0].text, b->conversations[i].turns[0].text);
  EXPECT_NE(a->conversations[0].turns[0].text, c->conversations[0].turns[0].text);
}

}  // namespace
}  // namespace servebench::dataset
