// The rankings composer (synthetic query + passages of exact token counts) and rankings rows
// read from input files (named query/passages texts).
#include "dataset/rankings.h"

#include <gtest/gtest.h>

#include <set>

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

TEST(SyntheticRankings, FixedSizesAreExact) {
  RankingsOptions o;
  o.num_entries = 12;
  o.passages_mean = 3;
  o.passage_tokens_mean = 40;
  o.query_tokens_mean = 9;
  o.seed = 3;
  auto entries = build_synthetic_rankings(*fx().builder, o);
  ASSERT_TRUE(entries.has_value()) << entries.error().message;
  ASSERT_EQ(entries->size(), 12u);
  std::set<std::string> queries;
  for (size_t i = 0; i < entries->size(); ++i) {
    const RankingsEntry& e = (*entries)[i];
    EXPECT_EQ(e.id, "synthetic-" + std::to_string(i));
    EXPECT_EQ(static_cast<int64_t>(fx().tok->count(e.query)), 9);
    EXPECT_EQ(e.query_tokens, 9);
    ASSERT_EQ(e.passages.size(), 3u);
    ASSERT_EQ(e.passage_tokens.size(), 3u);
    for (size_t p = 0; p < 3; ++p) {
      EXPECT_EQ(static_cast<int64_t>(fx().tok->count(e.passages[p])), 40);
      EXPECT_EQ(e.passage_tokens[p], 40);
    }
    EXPECT_EQ(e.input_tokens(), 9 + 3 * 40);
    queries.insert(e.query);
  }
  EXPECT_GT(queries.size(), 10u) << "queries start at seeded positions";
}

TEST(SyntheticRankings, SpreadFollowsTheStddevsAndTheSeed) {
  RankingsOptions o;
  o.num_entries = 200;
  o.passages_mean = 5;
  o.passages_stddev = 2;
  o.passage_tokens_mean = 20;
  o.passage_tokens_stddev = 6;
  o.query_tokens_mean = 8;
  o.query_tokens_stddev = 3;
  o.seed = 11;
  auto a = build_synthetic_rankings(*fx().builder, o);
  auto b = build_synthetic_rankings(*fx().builder, o);
  ASSERT_TRUE(a.has_value() && b.has_value());
  std::set<size_t> counts;
  std::set<int64_t> lengths;
  double passages = 0;
  for (size_t i = 0; i < a->size(); ++i) {
    const RankingsEntry& e = (*a)[i];
    EXPECT_GE(e.passages.size(), 1u);  // a positive normal integer
    counts.insert(e.passages.size());
    passages += static_cast<double>(e.passages.size());
    for (size_t p = 0; p < e.passages.size(); ++p) {
      EXPECT_GE(e.passage_tokens[p], 1);
      EXPECT_EQ(static_cast<int64_t>(fx().tok->count(e.passages[p])), e.passage_tokens[p]);
      lengths.insert(e.passage_tokens[p]);
    }
    EXPECT_EQ(e.query, (*b)[i].query);  // same seed, same entries
    EXPECT_EQ(e.passages, (*b)[i].passages);
  }
  EXPECT_GT(counts.size(), 3u);
  EXPECT_GT(lengths.size(), 8u);
  EXPECT_NEAR(passages / 200.0, 5.5, 0.6);  // ceil of normal(5, 2): mean about 5.5
  o.seed = 12;
  auto c = build_synthetic_rankings(*fx().builder, o);
  ASSERT_TRUE(c.has_value());
  EXPECT_NE((*c)[0].query, (*a)[0].query);
}

TEST(SyntheticRankings, BadSizesNameTheFlag) {
  for (auto [field, flag] : std::vector<std::pair<int64_t RankingsOptions::*, std::string>>{
           {&RankingsOptions::passages_mean, "--rankings-passages-mean"},
           {&RankingsOptions::passage_tokens_mean, "--rankings-passages-prompt-token-mean"},
           {&RankingsOptions::query_tokens_mean, "--rankings-query-prompt-token-mean"}}) {
    RankingsOptions o;
    o.*field = 0;
    auto r = build_synthetic_rankings(*fx().builder, o);
    ASSERT_FALSE(r.has_value()) << flag;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find(flag), std::string::npos) << r.error().message;
  }
  RankingsOptions o;
  o.passages_stddev = -1;
  EXPECT_FALSE(build_synthetic_rankings(*fx().builder, o).has_value());
}

Result<std::vector<RankingsEntry>> from_text(std::string_view text,
                                             FileFormat format = FileFormat::kSingleTurn) {
  auto file = parse_dataset_text(text, format, "r.jsonl");
  if (!file) return tl::unexpected(file.error());
  return rankings_from_file(*file, *fx().tok, "r.jsonl");
}

TEST(FileRankings, NamedTextsBecomeQueryAndPassages) {
  auto r = from_text(
      R"({"texts":[{"name":"query","contents":["what is a whale"]},{"name":"passages","contents":["a mammal","a fish"]}]})"
      "\n"
      R"({"texts":[{"name":"passages","contents":["first"]},{"name":"other","contents":["ignored"]},{"name":"queries","contents":["q2","unused"]}],"extra":{"top_n":1}})"
      "\n");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].query, "what is a whale");
  EXPECT_EQ((*r)[0].passages, (std::vector<std::string>{"a mammal", "a fish"}));
  EXPECT_EQ((*r)[0].query_tokens, static_cast<int64_t>(fx().tok->count("what is a whale")));
  EXPECT_EQ((*r)[0].input_tokens(),
            static_cast<int64_t>(fx().tok->count("what is a whale") + fx().tok->count("a mammal") +
                                 fx().tok->count("a fish")));
  EXPECT_EQ((*r)[1].query, "q2");
  EXPECT_EQ((*r)[1].passages, (std::vector<std::string>{"first"}));
  EXPECT_EQ((*r)[1].extra_json, R"({"top_n":1})");
}

TEST(FileRankings, BadRowsAreOneLineErrorsNamingTheRowAndTheFix) {
  struct Case {
    std::string text;
    std::string needle;
  };
  const Case cases[] = {
      {R"({"texts":[{"name":"passages","contents":["p"]}]})",
       "r.jsonl:1': a rankings row needs a text named 'query'"},
      {R"({"texts":[{"name":"query","contents":["q"]}]})", "'passages'"},
      {R"({"text":"unnamed"})", "'query'"},
      {R"({"session_id":"s","texts":[{"name":"query","contents":["q"]},{"name":"passages","contents":["p"]}]})"
       "\n"
       R"({"session_id":"s","texts":[{"name":"query","contents":["q"]},{"name":"passages","contents":["p"]}]})",
       "session 's' has 2 rows"},
  };
  for (const Case& c : cases) {
    auto r = from_text(c.text);
    ASSERT_FALSE(r.has_value()) << c.text;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find(c.needle), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
  auto trace = from_text(R"({"timestamp":0,"input_length":5})", FileFormat::kMooncakeTrace);
  ASSERT_FALSE(trace.has_value());
  EXPECT_NE(trace.error().message.find("single_turn"), std::string::npos) << trace.error().message;
}

}  // namespace
}  // namespace servebench::dataset
