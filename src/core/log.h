// Logging: spdlog to stderr with one format for the whole program. Logs never go to stdout
// (stdout is for results: `tokenize --count` prints a bare integer there).
//
// Every line passes through core::secrets::scrub before it is written, so registered secret
// literals never reach stderr.
//
// Thread safety: spdlog's default logger is thread-safe; init_logging is called once from main.
#pragma once

#include <spdlog/spdlog.h>

namespace servebench::core {

// verbosity: 0 = warnings and errors, 1 = info (default), 2 = debug (-v), 3 = trace (-vv).
void init_logging(int verbosity);

}  // namespace servebench::core

#define SB_LOG_TRACE(...) SPDLOG_TRACE(__VA_ARGS__)
#define SB_LOG_DEBUG(...) ::spdlog::debug(__VA_ARGS__)
#define SB_LOG_INFO(...) ::spdlog::info(__VA_ARGS__)
#define SB_LOG_WARN(...) ::spdlog::warn(__VA_ARGS__)
#define SB_LOG_ERROR(...) ::spdlog::error(__VA_ARGS__)
