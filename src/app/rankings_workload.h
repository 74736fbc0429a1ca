// The workload of the rankings endpoint types (endpoint capability kCapQueryPassages): one
// single-turn request per entry, each a query plus its passages (dataset/rankings.h), synthetic
// from the --rankings-* flags or read from --input-file. Bodies are rendered once per model
// before t0 with the query as a message of role "query" and each passage as one of role
// "passage"; a request's ISL is the query's tokens plus every passage's. The entry order follows
// --dataset-sampling-strategy (shuffle for synthetic entries, sequential for files). There are
// no sessions, no warm-up marker (the body has no prompt to mark) and no fixed schedule: a
// file's timestamps are ignored with a warning.
//
// Thread safety: pure function of its arguments.
#pragma once

#include <cstdint>
#include <string_view>

#include "app/workload_setup.h"

namespace servebench::app {

Result<PreparedWorkload> prepare_rankings_workload(const config::BenchmarkConfig& cfg,
                                                   const tokenizer::Tokenizer& tok,
                                                   const endpoints::Endpoint& endpoint,
                                                   std::string_view corpus, uint64_t seed);

}  // namespace servebench::app
