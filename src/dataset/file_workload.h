// FileWorkload: turns a parsed dataset/trace file (loaders/dataset_file.h) into conversations
// ready to send: texts synthesized for length-only rows (exact length, hash-id blocks shared
// across rows), input tokens counted, ShareGPT's length filters applied, output lengths set.
// Runs before t0; deterministic for a seed.
//
// hash_ids (mooncake, bailian): each id is one block of `block_size` tokens, identical wherever
// the id appears in the run (derived from the seed and the id alone); a row's last block is
// partial, final = input_length − (n − 1)·block_size, which must lie in (0, block_size]; when
// n·block_size < input_length the tail after the blocks is fresh text. Blocks are joined with a
// space and counted in their continuation form, so the row's text encodes to input_length.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "dataset/exact_prompts.h"
#include "dataset/loaders/dataset_file.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

struct WorkloadTurn {
  std::string text;               // user text (texts joined with " ", AIPerf's ISL rule)
  std::string role = "user";
  std::vector<FileMedia> media;   // the row's media inputs, unresolved (media/file_media.h)
  std::string messages_json;      // verbatim message array (mooncake `messages`)
  std::string tools_json;
  std::string payload_json;       // verbatim request body (raw_payload, inputs_json, mooncake payload)
  std::string extra_json;         // merged into the body
  int64_t input_tokens = -1;      // client-side ISL (-1 for verbatim payloads)
  int64_t max_output_tokens = -1; // -1: --osl or the server decides
  double timestamp_ms = -1;       // absolute schedule (ms); -1 = none
  double delay_ms = -1;           // wait before this turn (ms); -1 = none
  std::vector<std::pair<std::string, std::string>> lead_messages;  // role, text before `text`
  int32_t model_rank = -1;        // --model[rank % count]; -1 = the default choice
  double recorded_t_ms = -1;      // traces: recorded start from the trace's start (-1 = none)
  int64_t prefix_hit_blocks = -1;    // weka_trace: theoretical prefix-cache hit (dataset_file.h)
  int64_t prefix_total_blocks = -1;
};

struct WorkloadConversation {
  std::string session_id;
  std::string system_prompt;      // hoisted leading system turn (multi_turn)
  std::vector<WorkloadTurn> turns;
  std::vector<FileBranch> branches;  // child conversations (load/children.h)
  bool carry_history = true;
};

struct FileWorkloadOptions {
  uint64_t seed = 0;
  int64_t block_size = 0;         // --isl-block-size (0 = the format's default)
  bool osl_given = false;         // --osl set: ShareGPT's output-length filter is skipped
  // ShareGPT filters (vLLM's is_valid_sequence). The public ShareGPT loader drops the prompts of
  // conversations these defaults doom (public_datasets.cc): set them there too if they change.
  int64_t sharegpt_min_prompt_tokens = 4;
  int64_t sharegpt_max_prompt_tokens = 1024;
  int64_t sharegpt_min_output_tokens = 4;
  int64_t sharegpt_max_total_tokens = 2048;
  // --public-dataset sharegpt (AIPerf's loader): every exchange of a conversation is a turn of one
  // session with live history, and one exchange failing the filter drops the whole conversation.
  // Off (a ShareGPT --input-file): exchanges are filtered one by one and the first is sent.
  bool sharegpt_whole_conversations = false;
};

struct FileWorkload {
  std::vector<WorkloadConversation> conversations;
  bool has_timestamps = false;
  bool multi_turn_history = false;  // a session's later turns are deltas needing live history
  int64_t filtered_out = 0;         // ShareGPT pairs (or whole conversations) dropped by the filter
};

// vLLM's is_valid_sequence for one ShareGPT exchange, as build_file_workload applies it.
bool sharegpt_keeps(int64_t prompt_tokens, int64_t output_tokens, const FileWorkloadOptions& options);

Result<FileWorkload> build_file_workload(const DatasetFile& file, const tokenizer::Tokenizer& tok,
                                         const ExactPromptBuilder& builder, const FileWorkloadOptions& options);
// The same, consuming the file: texts are moved into the workload and each conversation's turns
// are released as it is built (a public ShareGPT file's prompts are held once, not twice). The
// file keeps its format and conversation list, with no turns.
Result<FileWorkload> build_file_workload(DatasetFile&& file, const tokenizer::Tokenizer& tok,
                                         const ExactPromptBuilder& builder, const FileWorkloadOptions& options);

}  // namespace servebench::dataset
