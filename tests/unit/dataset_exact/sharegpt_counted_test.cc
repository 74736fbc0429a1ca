// parse_sharegpt_counted (loaders/sharegpt_counted.h) against the whole-file ShareGPT parser: the
// same conversations, ids and prompts, counts equal to the tokenizer's, and the same workload
// (kept conversations, turns, input and output lengths, filtered count) once built.
#include "dataset/loaders/sharegpt_counted.h"

#include <gtest/gtest.h>

#include <random>

#include "dataset/file_workload.h"
#include "dataset/parallel_counts.h"
#include "dataset/synthetic_prompts.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

namespace tt = tokenizer::testing;

const tokenizer::Tokenizer& tok() {
  static const auto t = *tokenizer::load_tokenizer("builtin");
  return *t;
}

Result<DatasetFile> counted(const std::string& text, unsigned threads,
                            std::function<bool(int64_t, int64_t)> may_pass = nullptr) {
  ShareGptCountedOptions o;
  o.exchange_may_pass = std::move(may_pass);
  o.count = [](std::string_view s) { return static_cast<int64_t>(tok().count(s)); };
  o.for_each = [threads](size_t n, const std::function<void(size_t)>& fn) { parallel_for(n, threads, fn); };
  return parse_sharegpt_counted(text, o, "share.json");
}

// A ShareGPT file with every shape the parser meets: missing ids, non-object items, items
// without "conversations", user/assistant/chatgpt roles, a prompt without a reply, a reply
// without a prompt, escapes and non-ASCII text, numbers where strings belong.
std::string random_file(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  const std::vector<std::string> words = {"whale", "sea", "\\\"quoted\\\"", "line\\nbreak", "caf\u00e9",
                                          "\\u00e9t\u00e9", "Ahab", "tab\\there", "7", "harpoon"};
  auto text = [&] {
    std::string s;
    for (uint64_t k = rng() % 60; k > 0; --k) s += words[rng() % words.size()] + " ";
    return s;
  };
  const std::vector<std::string> humans = {"human", "user"}, gpts = {"gpt", "assistant", "chatgpt"};
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    if (i) out += ",";
    const uint64_t shape = rng() % 20;
    if (shape == 0) { out += "42"; continue; }
    if (shape == 1) { out += R"({"id":"x","other":[]})"; continue; }
    out += "{";
    if (shape != 2) out += "\"id\":\"c" + std::to_string(i) + "\",";
    out += "\"conversations\":[";
    const uint64_t msgs = rng() % 9;
    for (uint64_t m = 0; m < msgs; ++m) {
      if (m) out += ",";
      const bool human = (m % 2 == 0) != (rng() % 10 == 0);
      const std::string from = human ? humans[rng() % 2] : gpts[rng() % 3];
      if (rng() % 25 == 0) {
        out += R"({"from":")" + from + R"(","value":5})";
      } else {
        out += R"({"from":")" + from + R"(","value":")" + text() + R"("})";
      }
    }
    out += "]}";
  }
  return out + "]";
}

TEST(ShareGptCounted, SameConversationsAsTheWholeFileParserWithExactCounts) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    const std::string text = random_file(seed, 400);
    auto whole = parse_dataset_text(text, FileFormat::kShareGpt, "share.json");
    ASSERT_TRUE(whole) << whole.error().message;
    for (unsigned threads : {1u, 3u}) {
      auto c = counted(text, threads);
      ASSERT_TRUE(c) << c.error().message;
      ASSERT_EQ(c->conversations.size(), whole->conversations.size());
      for (size_t i = 0; i < c->conversations.size(); ++i) {
        const auto& a = whole->conversations[i];
        const auto& b = c->conversations[i];
        EXPECT_EQ(b.session_id, a.session_id);
        ASSERT_EQ(b.turns.size(), a.turns.size()) << a.session_id;
        for (size_t t = 0; t < a.turns.size(); ++t) {
          EXPECT_EQ(b.turns[t].texts, a.turns[t].texts);
          EXPECT_TRUE(b.turns[t].expected_output.empty());
          EXPECT_EQ(b.turns[t].text_tokens, static_cast<int64_t>(tok().count(a.turns[t].texts[0])));
          EXPECT_EQ(b.turns[t].expected_output_tokens, static_cast<int64_t>(tok().count(a.turns[t].expected_output)));
        }
      }
    }
  }
}

TEST(ShareGptCounted, BuildsTheSameWorkloadAsTheWholeFileParser) {
  const std::string text = random_file(9, 600);
  auto whole = parse_dataset_text(text, FileFormat::kShareGpt, "share.json");
  FileWorkloadOptions early;  // the checks that hold whatever --osl says, as the public loader does
  early.osl_given = true;
  early.sharegpt_max_prompt_tokens = 80;
  auto c = counted(text, 2, [early](int64_t p, int64_t r) { return sharegpt_keeps(p, r, early); });
  auto all = counted(text, 2);  // exchange by exchange, a doomed conversation's other turns count
  ASSERT_TRUE(whole && c && all);
  size_t dropped_texts = 0;
  for (const auto& conv : c->conversations)
    for (const auto& t : conv.turns) dropped_texts += t.texts[0].empty() && t.text_tokens > 0;
  EXPECT_GT(dropped_texts, 0u) << "doomed conversations keep no prompt text";
  auto corpus = load_corpus(tt::source_dir() + "/data/corpus/mobydick.txt");
  auto builder = ExactPromptBuilder::create(*corpus, tok());
  ASSERT_TRUE(builder);
  for (bool whole_conversations : {true, false}) {
    FileWorkloadOptions o;
    o.sharegpt_whole_conversations = whole_conversations;
    o.sharegpt_max_prompt_tokens = 80;  // drops some conversations
    auto a = build_file_workload(*whole, tok(), *builder, o);
    auto b = build_file_workload(whole_conversations ? *c : *all, tok(), *builder, o);
    DatasetFile consumed = whole_conversations ? *c : *all;
    auto moved = build_file_workload(std::move(consumed), tok(), *builder, o);  // texts moved out
    ASSERT_TRUE(a && b && moved);
    for (const auto& conv : consumed.conversations) EXPECT_TRUE(conv.turns.empty());
    ASSERT_EQ(moved->conversations.size(), b->conversations.size());
    for (size_t i = 0; i < b->conversations.size(); ++i) {
      ASSERT_EQ(moved->conversations[i].turns.size(), b->conversations[i].turns.size());
      for (size_t t = 0; t < b->conversations[i].turns.size(); ++t)
        EXPECT_EQ(moved->conversations[i].turns[t].text, b->conversations[i].turns[t].text);
    }
    EXPECT_GT(a->filtered_out, 0);
    EXPECT_EQ(b->filtered_out, a->filtered_out);
    ASSERT_EQ(b->conversations.size(), a->conversations.size());
    for (size_t i = 0; i < a->conversations.size(); ++i) {
      EXPECT_EQ(b->conversations[i].session_id, a->conversations[i].session_id);
      ASSERT_EQ(b->conversations[i].turns.size(), a->conversations[i].turns.size());
      for (size_t t = 0; t < a->conversations[i].turns.size(); ++t) {
        EXPECT_EQ(b->conversations[i].turns[t].text, a->conversations[i].turns[t].text);
        EXPECT_EQ(b->conversations[i].turns[t].input_tokens, a->conversations[i].turns[t].input_tokens);
        EXPECT_EQ(b->conversations[i].turns[t].max_output_tokens, a->conversations[i].turns[t].max_output_tokens);
      }
    }
  }
}

TEST(ShareGptCounted, BadFilesAreOneLineErrorsNamingTheFile) {
  auto not_array = counted(R"({"id":"a"})", 1);
  ASSERT_FALSE(not_array);
  EXPECT_NE(not_array.error().message.find("share.json"), std::string::npos);
  EXPECT_NE(not_array.error().message.find("expected a JSON array"), std::string::npos);
  for (const char* bad : {R"([{"id":"a","conversations":[{"from":"human","value":"x"}]})",
                          R"([{"id":"a","conversations":[{"from":"human" "value":"x"}]}])", "[1,2] 3"}) {
    auto r = counted(bad, 1);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("invalid JSON"), std::string::npos) << r.error().message;
  }
  auto empty = counted(R"([{"id":"a","conversations":[]}])", 1);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no usable conversations"), std::string::npos);
}

}  // namespace
}  // namespace servebench::dataset
