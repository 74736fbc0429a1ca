// CLI11 parsing shared by the subcommands: --help prints the command's help (exit 0); a parse
// error is one line "servebench <cmd>: <what> (see servebench <cmd> --help)" (exit 2).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

namespace servebench::cli {

// The exit code when the command should stop now (help shown or bad arguments), else nullopt.
inline std::optional<int> parse_command_line(CLI::App& app, const std::string& command, int argc,
                                             char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "servebench %s: %s (see servebench %s --help)\n", command.c_str(), e.what(),
                 command.c_str());
    return 2;
  }
  return std::nullopt;
}

}  // namespace servebench::cli
