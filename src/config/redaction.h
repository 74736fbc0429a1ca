// What of a `servebench profile` command may be shown, and which values are secrets.
//
// Secret: the --api-key value, every -H value whose header name is not on core/secrets.h's
// allow-list, and the user info of every -u/--url. They are replaced by "<redacted>" where the
// command line or the config is echoed, and registered as literals with core::secrets so every
// export and log line scrubs them wherever else they turn up.
//
// Thread safety: redacted_command_line is pure; the register_* functions write the process-wide
// registry (call them at start-up).
#pragma once

#include <string>

#include "config/benchmark_config.h"

namespace servebench::config {

// The command line as one shell-quoted string with the secrets above replaced by "<redacted>".
// Handles "--flag value", "--flag=value" and "-Xvalue" spellings.
std::string redacted_command_line(int argc, const char* const* argv);

// Registers the secret values found in argv (same rules), before any parsing, so even a parser
// error that echoes an argument is scrubbed.
void register_argv_secrets(int argc, const char* const* argv);

// Registers the secrets of a converted config (api key, secret header values, including an
// Authorization header built from URL user info).
void register_config_secrets(const BenchmarkConfig& config);

}  // namespace servebench::config
