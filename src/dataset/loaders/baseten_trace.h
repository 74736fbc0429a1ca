// baseten_trace: Baseten's Parquet completion traces (AIPerf's name and columns), read with
// sb_parquet and turned into sessions of timed rows ready for the workload builder.
//
// Columns: timestamp_start_unix_ms, prompt, input_tokens, output_tokens (required);
// provided_session_id / poor_man_session_id (session key), total_hashes (list<int>),
// block_size, duration_e2e_ms (optional; others are ignored, never read).
//
// Rules (AIPerf semantics):
//   sessions   key = `session_column` when present, else the other key column; a null key or
//              no key column makes a row its own session. Rows in a session are sorted by
//              timestamp; sessions by (first timestamp, id). Rows are sent as they are (the
//              prompt already holds any history): no history is rebuilt.
//   timestamps normalised to ms since the file's first row, then divided by `speedup`.
//   body       max_tokens = max(1, output_tokens); min_tokens the same unless
//              !force_min_tokens; hash_ids = total_hashes (when non-empty) and block_size
//              (when present) unless omit_kv_hints; carried in FileTurn::extra_json.
//   prompt     sent verbatim; a null prompt falls back to exact-length synthesis of
//              input_tokens tokens, built from the row's total_hashes as shared blocks (as for
//              mooncake rows) when every row has the same block_size and the hashes fit the
//              length (input_tokens > (n − 1) · block_size).
//   open loop  every row keeps its offset (a later turn still waits for the previous reply).
//   closed     turn 0 keeps its offset; turn k waits max(0, gap − e2e_{k−1}) / speedup after
//              turn k−1's reply (the raw gap without duration_e2e_ms), capped at
//              inter_turn_delay_cap_ms.
//   strict     (open loop only) every row is its own session "<sid>#<i>" at its offset.
//   sampling   sample_ratio < 1 keeps each session with that probability (seeded; at least one).
//   idle cap   every gap between consecutive scheduled events (open: all rows; closed: the
//              session starts) shrinks to at most max_idle_gap_cap_ms (after the speed-up).
// Errors: one line naming the file, the column and (for values) the row; exit code 2.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {

struct BasetenOptions {
  bool open_loop = true;
  bool open_loop_strict = false;
  double sample_ratio = 1.0;
  uint64_t seed = 0;
  double inter_turn_delay_cap_ms = -1;  // <= 0: none
  double max_idle_gap_cap_ms = -1;      // <= 0: none
  double speedup = 1.0;
  bool omit_kv_hints = false;
  bool force_min_tokens = true;
  std::string session_column = "provided_session_id";
};

// True when `head` starts like a Parquet file ("PAR1").
bool looks_like_parquet(std::string_view head);

Result<DatasetFile> parse_baseten_trace(std::string_view bytes, const std::string& name,
                                        const BasetenOptions& options);

// Reads `path` (input_file.h limits) and parses it.
Result<DatasetFile> load_baseten_trace(const std::string& path, const BasetenOptions& options);

}  // namespace servebench::dataset
