// sagemaker_data_capture: Amazon SageMaker endpoint Data Capture files (JSON Lines as written to
// S3; a folder is searched recursively for *.jsonl files, read in path order).
//
// Each line {"captureData": {"endpointInput": {"observedContentType", "mode", "data",
// "encoding": "JSON" | "BASE64"}, "endpointOutput": {...}}, "eventMetadata": {"eventId",
// "inferenceTime": ISO-8601 UTC}, "eventVersion"} is one single-turn request. The input `data`
// (JSON text, or base64 of it) is the request body the endpoint received: a chat body's
// `messages` are sent as given (FileTurn::messages_json, with `tools`); a `prompt` or `inputs`
// string is sent as the turn's text. `max_tokens` (or `max_completion_tokens`, or TGI's
// `parameters.max_new_tokens`) is the output length. inferenceTime becomes the timestamp, in ms
// after the file's earliest capture (fixed schedule). endpointOutput is not used (the replay
// measures its own replies). Lines with an output-only capture are skipped.
//
// Thread safety: pure function.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset::parsers {

Result<DatasetFile> parse_sagemaker_capture(std::string_view text, const std::string& name);
// Same, with absolute timestamps (ms since the epoch): folders rebase after merging files.
Result<DatasetFile> parse_sagemaker_capture_absolute(std::string_view text, const std::string& name);

// "2024-05-01T12:00:03.250Z" → ms since the Unix epoch; false when malformed.
bool parse_iso8601_ms(std::string_view text, double* ms);

// Shifts every timestamp so that the earliest is 0 (after files were merged).
void rebase_timestamps(DatasetFile* file);

}  // namespace servebench::dataset::parsers
