// Internal to sb_dataset_loaders: the format parsers behind parse_dataset_text
// (dataset_file.h), one file per family. Not part of the dataset module's interface.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace simdjson::dom {
class element;
}

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
// One element of a ShareGPT array: false when it holds no "conversations" list (skipped, as vLLM
// does). *id is its "id" when that is a string (*has_id). on_exchange(prompt, reply) is called
// for each human/gpt pair in order (a prompt without a reply is dropped); the views live as long
// as the parsed document.
bool read_sharegpt_item(const simdjson::dom::element& item, std::string_view* id, bool* has_id,
                        const std::function<void(std::string_view, std::string_view)>& on_exchange);
// BurstGPT's CSV (whole_file_parsers.cc).
Result<DatasetFile> parse_burst_gpt(std::string_view text, const std::string& name);

}  // namespace servebench::dataset::parsers
