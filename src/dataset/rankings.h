// Rankings workloads: entries of one query plus the passages to rank against it, either
// synthetic (AIPerf's synthetic rankings composer) or read from an input file. Built before t0,
// every text counted with the run's tokenizer; same options and seed => same entries.
//
// Synthetic rules (AIPerf's; "positive normal integer" as in conversations.h):
//   passages  per entry: positive normal integer of (passages_mean, passages_stddev), >= 1.
//   query     one prompt of exactly a positive normal integer of (query_tokens_mean,
//             query_tokens_stddev) tokens.
//   passage   each one a prompt of exactly a positive normal integer of
//             (passage_tokens_mean, passage_tokens_stddev) tokens.
//   id        "synthetic-<i>", i from 0.
// Each quantity has its own named core::Rng stream under `seed` ("rankings.passages",
// "rankings.passages.tokens", "rankings.query.tokens", "rankings.prompt").
//
// File rules (AIPerf's named texts): a single_turn or random_pool row whose `texts` hold
// {"name":"query"|"queries","contents":[..]} and {"name":"passages","contents":[..]}: the first
// query content is the query, every passages content a passage, in order; texts of other names
// are ignored. A row's `extra` object rides along. Errors (kInvalidArgument, one line naming the
// file, the row and the fix): a row without a query or without passages, a session of several
// rows (rankings requests carry no history), a format without named texts (traces, ShareGPT).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "dataset/exact_prompts.h"
#include "dataset/loaders/dataset_file.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

struct RankingsEntry {
  std::string id;  // session id of the request
  std::string query;
  int64_t query_tokens = 0;
  std::vector<std::string> passages;
  std::vector<int64_t> passage_tokens;  // one per passage
  std::string extra_json;               // a file row's `extra` ("" = none)

  // ISL: the query's tokens plus every passage's.
  int64_t input_tokens() const;
};

struct RankingsOptions {
  int64_t num_entries = 100;
  int64_t passages_mean = 1;
  int64_t passages_stddev = 0;
  int64_t passage_tokens_mean = 550;
  int64_t passage_tokens_stddev = 0;
  int64_t query_tokens_mean = 550;
  int64_t query_tokens_stddev = 0;
  uint64_t seed = 0;
};

// Errors (kInvalidArgument naming the flag): a count or mean below 1, a negative stddev.
Result<std::vector<RankingsEntry>> build_synthetic_rankings(const ExactPromptBuilder& builder,
                                                            const RankingsOptions& options);

// `name` is the file's name in errors. Texts are counted with `tok`.
Result<std::vector<RankingsEntry>> rankings_from_file(const DatasetFile& file,
                                                      const tokenizer::Tokenizer& tok,
                                                      const std::string& name);

}  // namespace servebench::dataset
