// Rankings flags (config/flag_table.h): the synthetic rankings composer's sizes, AIPerf's
// --rankings-* group. They apply to the rankings endpoint types only (endpoint registry:
// kCapQueryPassages); giving one marks BenchmarkConfig::rankings_flags_given so validation can
// say so for any other type.
#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

FlagSpec rankings_count(std::string name, std::string help, int64_t C::*f, int64_t min,
                        std::string key) {
  FlagSpec s = count_flag(name, name, std::move(help), f, min, std::move(key));
  s.apply = [inner = s.apply](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    c->rankings_flags_given = true;
    return inner(in, c);
  };
  return s;
}

}  // namespace

void add_rankings_flags(std::vector<FlagSpec>* out) {
  out->push_back(rankings_count("--rankings-passages-mean", "Mean passages per rankings query",
                                &C::rankings_passages_mean, 1, "/input/rankings/passages/mean"));
  out->push_back(rankings_count("--rankings-passages-stddev", "Passages per query stddev",
                                &C::rankings_passages_stddev, 0,
                                "/input/rankings/passages/stddev"));
  out->push_back(rankings_count(
      "--rankings-passages-prompt-token-mean", "Mean tokens per rankings passage",
      &C::rankings_passage_tokens_mean, 1, "/input/rankings/passages/prompt_token_mean"));
  out->push_back(rankings_count("--rankings-passages-prompt-token-stddev",
                                "Tokens per passage stddev", &C::rankings_passage_tokens_stddev, 0,
                                "/input/rankings/passages/prompt_token_stddev"));
  out->push_back(rankings_count("--rankings-query-prompt-token-mean",
                                "Mean tokens per rankings query", &C::rankings_query_tokens_mean, 1,
                                "/input/rankings/query/prompt_token_mean"));
  out->push_back(rankings_count("--rankings-query-prompt-token-stddev", "Tokens per query stddev",
                                &C::rankings_query_tokens_stddev, 0,
                                "/input/rankings/query/prompt_token_stddev"));
}

}  // namespace servebench::config
