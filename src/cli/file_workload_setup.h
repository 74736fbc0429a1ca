// Request templates for `servebench profile --input-file`: loads the dataset or trace file,
// builds exact-length texts for length-only rows, renders one body per request and, for a
// fixed schedule, the intended send offsets. Everything here runs before t0.
//
// Not supported yet (clear usage errors): sessions whose turns carry history between them
// (multi_turn with several turns, mooncake/bailian sessions), and mooncake `messages` rows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "core/result.h"
#include "endpoints/endpoint.h"
#include "load/worker.h"
#include "tokenizer/tokenizer.h"

namespace servebench::cli {

struct FileRequests {
  std::vector<load::RequestTemplate> requests;  // entry-major, one per model (entry * models + m)
  size_t entries = 0;
  std::shared_ptr<const std::vector<int64_t>> fixed_offsets_ns;  // null: not a fixed schedule
  std::vector<std::string> warnings;
  std::string format;  // the file's format name
};

Result<FileRequests> prepare_file_requests(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                           const endpoints::Endpoint& endpoint, std::string_view corpus,
                                           uint64_t seed);

}  // namespace servebench::cli
