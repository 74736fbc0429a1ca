// Reading an input file (--input-file, a corpus file) safely: the bytes of one regular file, or
// of standard input for "-", with a size limit, a line-length check, and Ctrl-C honoured.
//
// Devices (/dev/zero), FIFOs, sockets and folders are refused before anything is read, with one
// line naming the file and the fix (an unbounded or blocking source would otherwise grow
// without limit or hang start-up). Standard input is read only when "-" is given and it is not
// a terminal. Reading polls core::interrupt_requested() between chunks and while waiting on
// standard input, so a raised interrupt stops it within ~100 ms (ErrorCode::kInterrupted).
//
// Limits (docs/environment.md): InputLimits defaults, overridden by SERVEBENCH_INPUT_MAX_BYTES
// and SERVEBENCH_INPUT_MAX_LINE_BYTES (plain byte counts or with k/M/G suffixes).
//
// Thread safety: pure functions over the file system; call from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/env.h"
#include "core/result.h"

namespace servebench::dataset {

inline constexpr int64_t kDefaultMaxInputBytes = int64_t{2} << 30;       // 2 GiB
inline constexpr int64_t kDefaultMaxInputLineBytes = int64_t{16} << 20;  // 16 MiB

struct InputLimits {
  int64_t max_bytes = kDefaultMaxInputBytes;
  int64_t max_line_bytes = kDefaultMaxInputLineBytes;

  // The defaults with the snapshot's overrides; a malformed or non-positive override is an
  // error (kInvalidArgument) naming the variable.
  static Result<InputLimits> from_env(const core::EnvSnapshot& env);
};

// Names "-" as standard input in messages.
inline bool is_stdin_path(std::string_view path) { return path == "-"; }

// The whole content of `path` (a regular file, or standard input for "-"). `what` names the
// input in messages ("--input-file", "SERVEBENCH_CORPUS"). Errors, one line each: kNotFound
// (missing or unreadable), kInvalidArgument (not a regular file, a terminal on stdin, over
// limits.max_bytes), kIo (a read error), kInterrupted.
Result<std::string> read_input_file(const std::string& path, const InputLimits& limits,
                                    std::string_view what = "--input-file");

// Checks that no line of `text` is longer than limits.max_line_bytes (kInvalidArgument naming
// `name`, the line number and the override). Line-based formats only (JSONL, CSV).
Status check_line_lengths(std::string_view text, const InputLimits& limits,
                          const std::string& name);

}  // namespace servebench::dataset
