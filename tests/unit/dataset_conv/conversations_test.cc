#include "dataset/conversations.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "core/interrupt.h"
#include "unit/dataset_exact/corpus_fixture.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

namespace tt = tokenizer::testing;

const std::string& corpus() { return testing::vendored_corpus(); }

struct TokFixture {
  std::shared_ptr<const tokenizer::Tokenizer> tok;
  std::optional<ExactPromptBuilder> builder;
};

// Builders are costly (every corpus word is counted), so one per tokenizer per process.
const TokFixture& setup(const std::string& spec) {
  static std::map<std::string, TokFixture> cache;
  auto it = cache.find(spec);
  if (it != cache.end()) return it->second;
  TokFixture s;
  auto t = tokenizer::load_tokenizer(spec);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  if (t) {
    s.tok = *t;
    auto b = ExactPromptBuilder::create(corpus(), *s.tok);
    EXPECT_TRUE(b) << (b ? "" : b.error().message);
    if (b) s.builder.emplace(std::move(*b));
  }
  return cache.emplace(spec, std::move(s)).first->second;
}

std::vector<SyntheticConversation> build(const ConversationOptions& o,
                                         const std::string& spec = "builtin") {
  const TokFixture& s = setup(spec);
  if (!s.builder) return {};
  auto r = build_synthetic_conversations(*s.builder, *s.tok, o);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : std::vector<SyntheticConversation>{};
}

ConversationOptions full_options() {
  ConversationOptions o;
  o.num_conversations = 40;
  o.turns_mean = 3;
  o.turns_stddev = 1;
  o.isl_mean = 120;
  o.isl_stddev = 40;
  o.osl_mean = 64;
  o.prefix_pool_size = 3;
  o.prefix_length = 50;
  o.shared_system_prompt_length = 100;
  o.user_context_length = 30;
  o.seed = 17;
  return o;
}

// Every text encodes to exactly the length it was built for.
void expect_exact_counts(const std::string& spec) {
  SCOPED_TRACE(spec);
  const ConversationOptions o = full_options();
  auto convs = build(o, spec);
  ASSERT_EQ(convs.size(), 40u);
  const tokenizer::Tokenizer& tok = *setup(spec).tok;
  size_t turns = 0;
  for (const auto& c : convs) {
    EXPECT_EQ(static_cast<int64_t>(tok.count(c.system_prompt)), 100);
    EXPECT_EQ(c.system_prompt_tokens, 100);
    EXPECT_EQ(static_cast<int64_t>(tok.count(c.user_context)), 30);
    EXPECT_EQ(c.user_context_tokens, 30);
    ASSERT_FALSE(c.turns.empty());
    for (size_t t = 0; t < c.turns.size(); ++t) {
      const SyntheticTurn& turn = c.turns[t];
      const int64_t want = turn.target_input_tokens + (t == 0 ? o.prefix_length : 0);
      EXPECT_EQ(turn.input_tokens, want) << c.session_id << " turn " << t;
      EXPECT_EQ(static_cast<int64_t>(tok.count(turn.text)), want) << c.session_id << " turn " << t;
      EXPECT_EQ(turn.max_output_tokens, 64);
      ++turns;
    }
    // The prefix alone is exactly prefix_length tokens.
    EXPECT_EQ(static_cast<int64_t>(
                  tok.count(std::string_view(c.turns[0].text).substr(0, c.prefix_bytes))),
              o.prefix_length);
  }
  EXPECT_GT(turns, 80u);
}

TEST(Conversations, ExactTokenCountsBuiltin) { expect_exact_counts("builtin"); }

TEST(Conversations, ExactTokenCountsRealTokenizers) {
  for (const char* family : {"qwen3", "llama3", "mistral_legacy"}) {
    const std::string path = tt::family_paths().at(family);
    ASSERT_TRUE(tt::file_exists(path)) << tt::missing_fixture_message(path);
    expect_exact_counts(path);
  }
}

TEST(Conversations, PrefixPoolOnFirstTurnsOnly) {
  ConversationOptions o = full_options();
  o.num_conversations = 60;
  auto convs = build(o);
  ASSERT_EQ(convs.size(), 60u);
  std::map<int64_t, std::string> prefix_of;
  for (const auto& c : convs) {
    ASSERT_GE(c.prefix_index, 0);
    ASSERT_LT(c.prefix_index, o.prefix_pool_size);
    const std::string& first = c.turns[0].text;
    ASSERT_GT(first.size(), c.prefix_bytes);
    EXPECT_EQ(first[c.prefix_bytes], ' ');
    const std::string prefix = first.substr(0, c.prefix_bytes);
    auto [it, inserted] = prefix_of.emplace(c.prefix_index, prefix);
    EXPECT_EQ(it->second, prefix) << "pool entry " << c.prefix_index
                                  << " is the same text everywhere";
  }
  ASSERT_EQ(prefix_of.size(), 3u) << "60 draws from a pool of 3 use all three";
  std::set<std::string> distinct;
  for (const auto& [i, p] : prefix_of) distinct.insert(p);
  EXPECT_EQ(distinct.size(), 3u);
  for (const auto& c : convs)
    for (size_t t = 1; t < c.turns.size(); ++t)
      for (const auto& p : distinct)
        EXPECT_NE(c.turns[t].text.rfind(p, 0), 0u) << "later turns carry no prefix";

  ConversationOptions none = full_options();
  none.prefix_pool_size = 0;
  none.prefix_length = 0;
  for (const auto& c : build(none)) {
    EXPECT_EQ(c.prefix_index, -1);
    EXPECT_EQ(c.prefix_bytes, 0u);
    EXPECT_EQ(c.turns[0].input_tokens, c.turns[0].target_input_tokens);
  }
}

TEST(Conversations, SharedSystemPromptAndDistinctUserContexts) {
  auto convs = build(full_options());
  ASSERT_FALSE(convs.empty());
  std::set<std::string> systems, contexts, ids;
  for (const auto& c : convs) {
    systems.insert(c.system_prompt);
    contexts.insert(c.user_context);
    ids.insert(c.session_id);
  }
  EXPECT_EQ(systems.size(), 1u);
  EXPECT_FALSE(convs[0].system_prompt.empty());
  EXPECT_EQ(contexts.size(), convs.size());
  EXPECT_EQ(ids.size(), convs.size());
  EXPECT_EQ(convs[0].session_id, "synthetic-0");
  EXPECT_EQ(convs[39].session_id, "synthetic-39");

  ConversationOptions plain = full_options();
  plain.shared_system_prompt_length = 0;
  plain.user_context_length = 0;
  for (const auto& c : build(plain)) {
    EXPECT_TRUE(c.system_prompt.empty());
    EXPECT_TRUE(c.user_context.empty());
    EXPECT_EQ(c.system_prompt_tokens, 0);
  }
}

TEST(Conversations, TurnCountsFollowMeanAndStddev) {
  ConversationOptions o;
  o.num_conversations = 3000;
  o.isl_mean = 4;
  o.turns_mean = 6;
  o.turns_stddev = 2;
  o.seed = 3;
  auto convs = build(o);
  ASSERT_EQ(convs.size(), 3000u);
  double sum = 0, sq = 0;
  size_t min_turns = 1000;
  for (const auto& c : convs) {
    const double n = static_cast<double>(c.turns.size());
    sum += n;
    sq += n * n;
    min_turns = std::min(min_turns, c.turns.size());
  }
  const double mean = sum / 3000, sd = std::sqrt(sq / 3000 - mean * mean);
  EXPECT_NEAR(mean, 6.5, 0.2);  // ceil() adds half a turn on average
  EXPECT_NEAR(sd, 2.0, 0.2);
  EXPECT_GE(min_turns, 1u);

  o.num_conversations = 20;
  o.turns_stddev = 0;
  o.turns_mean = 4.4;
  for (const auto& c : build(o)) EXPECT_EQ(c.turns.size(), 4u);
}

TEST(Conversations, DelaysBeforeLaterTurnsScaledByRatio) {
  ConversationOptions o;
  o.num_conversations = 30;
  o.isl_mean = 4;
  o.turns_mean = 4;
  o.delay_mean_ms = 100;
  o.delay_ratio = 2.5;
  for (const auto& c : build(o)) {
    ASSERT_EQ(c.turns.size(), 4u);
    EXPECT_EQ(c.turns[0].delay_ms, -1);
    for (size_t t = 1; t < 4; ++t) EXPECT_DOUBLE_EQ(c.turns[t].delay_ms, 250.0);
  }

  o.num_conversations = 1000;
  o.delay_stddev_ms = 20;
  o.delay_ratio = 0.5;
  double sum = 0;
  int n = 0;
  for (const auto& c : build(o)) {
    EXPECT_EQ(c.turns[0].delay_ms, -1);
    for (size_t t = 1; t < c.turns.size(); ++t) {
      EXPECT_GE(c.turns[t].delay_ms, 0.5);
      sum += c.turns[t].delay_ms;
      ++n;
    }
  }
  EXPECT_NEAR(sum / n, 100.5 * 0.5, 1.0);

  o.delay_mean_ms = 0;
  for (const auto& c : build(o))
    for (const auto& t : c.turns) EXPECT_EQ(t.delay_ms, -1);
}

TEST(Conversations, SequenceDistributionDrawsPairsJointly) {
  auto dist = SequenceDistribution::parse("32,16:50;64,48:50");
  ASSERT_TRUE(dist);
  ConversationOptions o;
  o.num_conversations = 50;
  o.turns_mean = 2;
  o.isl_mean = 999;  // ignored with a distribution
  o.seq_dist = &*dist;
  std::map<int64_t, int> seen;
  for (const auto& c : build(o)) {
    for (const auto& t : c.turns) {
      ASSERT_TRUE((t.target_input_tokens == 32 && t.max_output_tokens == 16) ||
                  (t.target_input_tokens == 64 && t.max_output_tokens == 48))
          << t.target_input_tokens << "," << t.max_output_tokens;
      EXPECT_EQ(t.input_tokens, t.target_input_tokens);
      ++seen[t.target_input_tokens];
    }
  }
  EXPECT_GT(seen[32], 25);
  EXPECT_GT(seen[64], 25);
}

TEST(Conversations, OutputTokensAndRangeRatio) {
  ConversationOptions o;
  o.num_conversations = 50;
  o.isl_mean = 100;
  o.isl_range_ratio = 0.5;
  for (const auto& c : build(o)) {
    EXPECT_EQ(c.turns[0].max_output_tokens, -1);
    EXPECT_GE(c.turns[0].target_input_tokens, 50);
    EXPECT_LE(c.turns[0].target_input_tokens, 150);
  }
}

TEST(Conversations, DeterministicAndStreamsIndependent) {
  const ConversationOptions o = full_options();
  auto a = build(o), b = build(o);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].system_prompt, b[i].system_prompt);
    EXPECT_EQ(a[i].user_context, b[i].user_context);
    ASSERT_EQ(a[i].turns.size(), b[i].turns.size());
    for (size_t t = 0; t < a[i].turns.size(); ++t) {
      EXPECT_EQ(a[i].turns[t].text, b[i].turns[t].text);
      EXPECT_EQ(a[i].turns[t].max_output_tokens, b[i].turns[t].max_output_tokens);
      EXPECT_EQ(a[i].turns[t].delay_ms, b[i].turns[t].delay_ms);
    }
  }
  ConversationOptions other = o;
  other.seed = o.seed + 1;
  EXPECT_NE(build(other)[0].turns[0].text, a[0].turns[0].text);

  // Turning the system prompt, user context and delays on or off leaves the turns untouched.
  ConversationOptions fewer = o;
  fewer.shared_system_prompt_length = 0;
  fewer.user_context_length = 0;
  fewer.delay_mean_ms = 50;
  auto c = build(fewer);
  ASSERT_EQ(c.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(c[i].turns.size(), a[i].turns.size());
    for (size_t t = 0; t < a[i].turns.size(); ++t)
      EXPECT_EQ(c[i].turns[t].text, a[i].turns[t].text);
  }
}

// Ctrl-C during set-up: the builder stops at the next conversation (interrupt flag raised).
TEST(Conversations, StopWhenInterrupted) {
  const TokFixture& s = setup("builtin");
  ASSERT_TRUE(s.builder);
  core::request_interrupt(2);
  auto r = build_synthetic_conversations(*s.builder, *s.tok, full_options());
  core::reset_interrupt_for_test();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInterrupted);
  EXPECT_TRUE(build_synthetic_conversations(*s.builder, *s.tok, full_options()));
}

TEST(Conversations, BadOptionsNameTheFlag) {
  const TokFixture& s = setup("builtin");
  ASSERT_TRUE(s.builder);
  struct Case {
    void (*mutate)(ConversationOptions&);
    const char* flag;
  };
  const Case cases[] = {
      {[](ConversationOptions& o) {
         o.prefix_length = 10;
         o.prefix_pool_size = 0;
       },
       "--prefix-prompt-pool-size"},
      {[](ConversationOptions& o) { o.turns_mean = 0; }, "--session-turns-mean"},
      {[](ConversationOptions& o) { o.turns_stddev = -1; }, "--session-turns-stddev"},
      {[](ConversationOptions& o) { o.delay_ratio = -1; }, "--session-delay-ratio"},
      {[](ConversationOptions& o) { o.num_conversations = -1; }, "--num-sessions"},
      {[](ConversationOptions& o) { o.user_context_length = -5; }, "--user-context-prompt-length"},
      {[](ConversationOptions& o) { o.shared_system_prompt_length = -5; },
       "--shared-system-prompt-length"},
  };
  for (const Case& k : cases) {
    ConversationOptions o;
    k.mutate(o);
    auto r = build_synthetic_conversations(*s.builder, *s.tok, o);
    ASSERT_FALSE(r) << k.flag;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find(k.flag), std::string::npos) << r.error().message;
  }
  ConversationOptions zero;
  zero.num_conversations = 0;
  auto r = build_synthetic_conversations(*s.builder, *s.tok, zero);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->empty());
}

}  // namespace
}  // namespace servebench::dataset
