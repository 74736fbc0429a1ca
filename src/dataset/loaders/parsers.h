// Internal to sb_dataset_loaders: the format parsers behind parse_dataset_text
// (dataset_file.h), one file per family. Not part of the dataset module's interface.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset::parsers {

// Error context: "file:line: field 'x': problem (fix)" (no line part when line is 0).
struct Where {
  const std::string& name;
  int64_t line;
  tl::unexpected<Error> fail(std::string_view field, std::string_view problem) const;
};

// The error a parse loop returns once core::interrupt_requested() is raised.
tl::unexpected<Error> interrupted(const std::string& name);

// One JSON object per line: single_turn, multi_turn, random_pool, mooncake_trace,
// bailian_trace, raw_payload (jsonl_parser.cc).
Result<DatasetFile> parse_jsonl(std::string_view text, FileFormat format, const std::string& name);
// A whole-file JSON document: inputs_json, sharegpt (whole_file_parsers.cc).
Result<DatasetFile> parse_whole_json(std::string_view text, FileFormat format,
                                     const std::string& name);
// BurstGPT's CSV (whole_file_parsers.cc).
Result<DatasetFile> parse_burst_gpt(std::string_view text, const std::string& name);

}  // namespace servebench::dataset::parsers
