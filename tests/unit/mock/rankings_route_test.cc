// servebench-mock's rankings routes as pure functions: request parsing per API and the answer
// bodies (shape, order, top_n, usage).
#include "rankings_route.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace servebench::mock {
namespace {

using nlohmann::json;

const TokenCounter& words() {
  static const auto counter = make_word_counter();
  return *counter;
}

ResponseHead head() { return ResponseHead{"rank-1", 1700000000, json_quote("rr")}; }

TEST(RankingsRoute, ParsesEachApisBody) {
  auto nim = parse_rankings_request(
      RankingsApi::kNim,
      R"({"model":"m","query":{"text":"a b c"},"passages":[{"text":"d"},{"text":"e f"}]})",
      words());
  ASSERT_TRUE(nim.has_value()) << nim.error().message;
  EXPECT_EQ(nim->model, "m");
  EXPECT_EQ(nim->query_tokens, 3);
  EXPECT_EQ(nim->passage_tokens, 3);
  EXPECT_EQ(nim->passage_keys.size(), 2u);
  EXPECT_EQ(nim->prompt_tokens(), 6);
  auto tei = parse_rankings_request(RankingsApi::kTei, R"({"query":"a b c","texts":["d","e f"]})",
                                    words());
  ASSERT_TRUE(tei.has_value());
  EXPECT_EQ(tei->query_key, nim->query_key);
  EXPECT_EQ(tei->passage_keys, nim->passage_keys);
  auto co = parse_rankings_request(
      RankingsApi::kCohere, R"({"query":"a b c","documents":["d",{"text":"e f"}],"top_n":1})",
      words());
  ASSERT_TRUE(co.has_value());
  EXPECT_EQ(co->passage_keys, nim->passage_keys);
  EXPECT_EQ(co->top_n, 1);
}

TEST(RankingsRoute, BadBodiesNameTheField) {
  struct Case {
    RankingsApi api;
    const char* body;
    const char* needle;
  };
  for (const Case& c :
       {Case{RankingsApi::kNim, R"({"query":"flat","passages":[{"text":"d"}]})", "'query'"},
        Case{RankingsApi::kNim, R"({"query":{"text":"q"},"passages":["d"]})", "'passages'"},
        Case{RankingsApi::kTei, R"({"query":"q","texts":[{"text":"d"}]})", "'texts'"},
        Case{RankingsApi::kTei, R"({"query":"q","texts":[]})", "must not be empty"},
        Case{RankingsApi::kCohere, R"({"query":"q"})", "'documents'"},
        Case{RankingsApi::kCohere, R"({"documents":["d"]})", "'query' is required"},
        Case{RankingsApi::kCohere, R"({"query":"q","documents":["d"],"top_n":1.5})", "'top_n'"},
        Case{RankingsApi::kCohere, "[1]", "JSON object"},
        Case{RankingsApi::kCohere, "{", "not valid JSON"}}) {
    auto r = parse_rankings_request(c.api, c.body, words());
    ASSERT_FALSE(r.has_value()) << c.body;
    EXPECT_NE(r.error().message.find(c.needle), std::string::npos) << r.error().message;
  }
}

TEST(RankingsRoute, AnswersAreSortedAndShapedPerApi) {
  auto req = parse_rankings_request(RankingsApi::kTei,
                                    R"({"query":"q","texts":["a","b","c","d","e"]})", words());
  ASSERT_TRUE(req.has_value());
  json tei = json::parse(rankings_body(RankingsApi::kTei, head(), *req));
  ASSERT_TRUE(tei.is_array());
  ASSERT_EQ(tei.size(), 5u);
  for (size_t i = 1; i < tei.size(); ++i) {
    EXPECT_GE(tei[i - 1]["score"].get<double>(), tei[i]["score"].get<double>());
  }
  for (const auto& e : tei) {
    EXPECT_GE(e["score"].get<double>(), -10.0);
    EXPECT_LE(e["score"].get<double>(), 10.0);
  }
  json nim = json::parse(rankings_body(RankingsApi::kNim, head(), *req));
  ASSERT_EQ(nim["rankings"].size(), 5u);
  EXPECT_EQ(nim["rankings"][0]["index"], tei[0]["index"]);
  EXPECT_EQ(nim["rankings"][0]["logit"], tei[0]["score"]);
  req->top_n = 2;
  json co = json::parse(rankings_body(RankingsApi::kCohere, head(), *req));
  EXPECT_EQ(co["id"], "rank-1");
  EXPECT_EQ(co["model"], "rr");
  ASSERT_EQ(co["results"].size(), 2u);
  EXPECT_EQ(co["results"][1]["index"], tei[1]["index"]);
  EXPECT_EQ(co["results"][1]["relevance_score"], tei[1]["score"]);
  EXPECT_EQ(co["usage"]["prompt_tokens"], 6);
  EXPECT_EQ(co["usage"]["total_tokens"], 6);
}

}  // namespace
}  // namespace servebench::mock
