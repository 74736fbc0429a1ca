// Internal to sb_dataset_loaders: how dataset_file.cc detects, parses and reads folders of the
// agent-trace formats (weka_trace.h, dag_jsonl.h, sagemaker_capture.h).
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"
#include "dataset/loaders/input_file.h"

namespace servebench::dataset {

// The format of a first record that only an agent-trace format has (AIPerf's detection):
// weka_trace (`hash_id_scope` and `requests`), sagemaker_data_capture (`captureData`),
// dag_jsonl (string `session_id` and `turns` whose items carry messages/forks/spawns).
std::optional<FileFormat> agent_trace_format(simdjson::dom::object first);

// Formats whose --input-file may be a folder read by load_agent_folder.
bool is_agent_folder_format(FileFormat format);

Result<DatasetFile> parse_agent_trace(std::string_view text, FileFormat format,
                                      const std::string& name);

// weka_trace: every *.json file of the folder (one trace each, name order);
// sagemaker_data_capture: every *.jsonl file below it (recursively, path order).
Result<DatasetFile> load_agent_folder(const std::string& path, FileFormat format,
                                      const InputLimits& limits);

}  // namespace servebench::dataset
