// Trace re-synthesis (AIPerf's --synthesis-* flags): reshapes the length-only rows of a loaded
// trace (mooncake_trace, bailian_trace, burst_gpt_trace, ...) before their prompts are built by
// FileWorkload (file_workload.h), keeping the trace's prefix-sharing structure.
//
// The rows' hash-id lists are put in a radix tree (a trie of hash-id paths). A row's shared
// prefix is its leading run of tree nodes that more than one row passes through; the rest of the
// row is its unique prompt. With B the block size, P the shared blocks and L the input length:
//   prefix_len_multiplier m   the prefix becomes P' blocks: ceil(P·m) when m > 1, max(1, floor(P·m))
//                             when m < 1. New block j belongs to the original node at depth
//                             min(P, ceil(j/m)) and gets one id per (node, j): rows that shared k
//                             nodes share at least their first floor(k·m) new blocks, rows that
//                             shared none share none. A partial shared last block stays partial.
//   prompt_len_multiplier p   the unique part U = L − P·B becomes round(U·p) tokens in fresh blocks
//                             (rows without hash ids are all unique: L becomes round(L·p)).
//   prefix_root_multiplier R  each conversation is put in one of R copies of the tree (seeded
//                             draw; ids offset per copy), so prefixes are shared R times less.
//   speedup_ratio s           timestamps divided by s (AIPerf: delays are kept).
//   output_len_multiplier o   output lengths become max(1, round(osl·o)).
//   max_isl                   rows whose recorded input_length exceeds it are dropped (before
//                             synthesis); synthesized lengths are capped at it (hash ids trimmed).
//   max_osl                   output lengths capped at it (after the multiplier).
// Every row keeps at least one input token. New hash ids are renumbered from 0, so block texts
// (derived from the seed and the id) never depend on the recorded ids.
//
// Rows with text, messages or payloads keep their content (only timestamps and output lengths
// change). Conversations with branches (agent traces) keep their turns: only the speed-up and the
// output length options apply to them.
//
// Thread safety: pure function of (file, options).
#pragma once

#include <cstdint>
#include <optional>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {

struct TraceSynthesisOptions {
  double speedup_ratio = 1.0;
  double prefix_len_multiplier = 1.0;
  int64_t prefix_root_multiplier = 1;
  double prompt_len_multiplier = 1.0;
  double output_len_multiplier = 1.0;
  std::optional<int64_t> max_isl;
  std::optional<int64_t> max_osl;
  int64_t block_size = 0;  // tokens per hash id (0 = the file's default, else 512)
  uint64_t seed = 0;
  // True when the prompt-reshaping part (hash ids, lengths) has anything to do.
  bool reshapes() const {
    return prefix_len_multiplier != 1.0 || prefix_root_multiplier != 1 || prompt_len_multiplier != 1.0;
  }
};

struct TraceSynthesisReport {
  int64_t dropped_max_isl = 0;  // rows dropped by max_isl
  int64_t capped_max_osl = 0;   // rows whose output length max_osl capped
  int64_t capped_max_isl = 0;   // synthesized rows cut back to max_isl
};

// Reshapes `file` in place. An error (no row left after max_isl) names the flag and the fix.
Result<TraceSynthesisReport> synthesize_trace(const TraceSynthesisOptions& options, DatasetFile* file);

}  // namespace servebench::dataset
