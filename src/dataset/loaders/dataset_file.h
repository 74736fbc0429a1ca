// Dataset and trace files (`--input-file`, `--custom-dataset-type`): parsing only. Turns a file
// into conversations of raw turns, with every field AIPerf's formats define; synthesizing
// prompts for length-only rows (traces) and scheduling are done by the workload builder.
//
// Formats (AIPerf names): single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace,
// burst_gpt_trace, inputs_json, raw_payload, baseten_trace (Parquet; replay options in
// baseten_trace.h), weka_trace, dag_jsonl, sagemaker_data_capture, plus sharegpt (vLLM's
// ShareGPT JSON file).
// A malformed file is an error naming the file, the line and the field (exit code 2).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/media_part.h"
#include "core/result.h"

namespace servebench::dataset {

enum class FileFormat {
  kSingleTurn,
  kMultiTurn,
  kRandomPool,
  kMooncakeTrace,
  kBailianTrace,
  kBurstGptTrace,
  kInputsJson,
  kRawPayload,
  kShareGpt,
  kBasetenTrace,  // Parquet (baseten_trace.h)
  kWekaTrace,
  kDagJsonl,
  kSageMakerCapture,
};

const char* file_format_name(FileFormat format);
// Parses an AIPerf --custom-dataset-type name ("mooncake_trace", ...).
Result<FileFormat> parse_file_format(std::string_view name);

// A media input of a row (`image`/`images`, `audio`/`audios`, `video`/`videos`) as written: a
// local path, an http(s) URL or an inline payload (a data URL; audio also "wav,<base64>").
// Resolved before t0 by media/file_media.h.
struct FileMedia {
  core::MediaKind kind = core::MediaKind::kImage;
  std::string value;
  std::string field;  // the row's field name ("image", "images", ...), for error messages
  int64_t line = 0;   // 1-based source line
};

// One turn as the file gave it. Absent numbers are -1; absent JSON fields are "".
struct FileTurn {
  std::vector<std::string> texts;  // text / texts / text_input / value (ShareGPT human turn)
  // text_names[i]: the name of the {name, contents} group texts[i] came from ("" when unnamed);
  // empty when the row named none (rankings read "query"/"queries" and "passages").
  std::vector<std::string> text_names;
  std::string role;                // role, if given
  std::vector<FileMedia> media;    // images, then audio clips, then videos (file order)
  std::string messages_json;       // mooncake `messages` (JSON array, verbatim)
  std::string tools_json;          // mooncake `tools` (JSON array, verbatim)
  std::string payload_json;        // raw_payload / mooncake payload / inputs_json payload (verbatim)
  std::string extra_json;          // `extra` object merged into the body (verbatim)
  int64_t input_length = -1;       // tokens to synthesize (traces)
  int64_t output_length = -1;      // max tokens to request
  std::vector<int64_t> hash_ids;   // KV-cache block ids (traces)
  double timestamp_ms = -1;        // absolute schedule time (ms)
  double delay_ms = -1;            // delay before sending (ms)
  std::string expected_output;     // ShareGPT gpt reply (for its length filter)
  // Token counts already taken (sharegpt_counted.h): of the joined texts and of the reply; -1 =
  // count when the workload is built.
  int64_t text_tokens = -1;
  int64_t expected_output_tokens = -1;
  int64_t line = 0;                // 1-based source line (0 for whole-file formats)
  // Messages authored before the turn's own (dag_jsonl turns of several messages): role and
  // text content, sent in order before `texts`/`role`.
  std::vector<std::pair<std::string, std::string>> lead_messages;
  int32_t model_rank = -1;         // traces: the recorded model's rank of first appearance
  double think_time_ms = -1;       // weka_trace: recorded client wait before this call (-1: none)
  double api_time_ms = -1;         // weka_trace: recorded server time of this call (-1: none)
  // weka_trace: recorded start from the session start, for every request (sub-agents too), so
  // replay options can re-derive delays from the recorded clock (-1: none).
  double recorded_t_ms = -1;
  // weka_trace: the recorded `out` (before any cap; the next call's assistant message size).
  int64_t recorded_output_length = -1;
  // weka_trace: leading hash blocks of this turn some earlier request of the file produced, and
  // the turn's blocks (theoretical prefix-cache hit); -1 = not stamped.
  int64_t prefix_hit_blocks = -1;
  int64_t prefix_total_blocks = -1;
};

// Child conversations started by a conversation (agent traces; load/children.h plays them).
struct FileBranch {
  int32_t after_turn = -1;          // starts when this turn completes (-1: at the session start)
  int32_t join_turn = -1;           // the turn that waits for every child (-1: none)
  bool fork = false;                // children start with the parent's history
  std::vector<std::string> children;    // session ids
  std::vector<double> child_delay_ms;   // per child, after the anchor (empty: 0)
};

struct FileConversation {
  FileConversation() = default;
  FileConversation(std::string id, std::vector<FileTurn> t)
      : session_id(std::move(id)), turns(std::move(t)) {}
  std::string session_id;
  std::vector<FileTurn> turns;
  std::vector<FileBranch> branches;
  bool carry_history = true;        // false: every turn is complete on its own (weka_trace)
  // weka_trace: each turn is sent as the messages of dataset/lcp_messages.h (system, user,
  // assistant, ... cut at the hash-id LCP with the previous turn), not as one user message;
  // prefix_tokens = the trace's (or sub-agent's) tool_tokens + system_tokens.
  bool lcp_messages = false;
  int64_t prefix_tokens = 0;
};

struct DatasetFile {
  FileFormat format = FileFormat::kSingleTurn;
  std::vector<FileConversation> conversations;
  bool has_timestamps = false;   // any turn carries timestamp_ms: fixed schedule auto-enables
  int64_t default_block_size = 0;  // tokens per hash_id (512 mooncake, 16 bailian; 0 = n/a)
  int64_t lines = 0;             // non-empty lines read
};

struct InputLimits;  // input_file.h

// Guesses the format of `path` from its first record (AIPerf's auto-detection order).
Result<FileFormat> detect_file_format(const std::string& path);
Result<FileFormat> detect_file_format(const std::string& path, const InputLimits& limits);

// Loads `path`: a regular file, "-" for standard input, or (random_pool, raw_payload) a folder
// of regular files. The file is read once (input_file.h: devices, FIFOs and sockets are refused;
// size and, for line-based formats, line-length limits apply; Ctrl-C stops reading and parsing
// with ErrorCode::kInterrupted). The first overload takes the limits from the environment.
Result<DatasetFile> load_dataset_file(const std::string& path, std::optional<FileFormat> format);
Result<DatasetFile> load_dataset_file(const std::string& path, std::optional<FileFormat> format,
                                      const InputLimits& limits);

// Same, from bytes already in memory (tests, fuzzing). `name` is used in error messages.
Result<DatasetFile> parse_dataset_text(std::string_view text, FileFormat format,
                                       const std::string& name);

}  // namespace servebench::dataset
